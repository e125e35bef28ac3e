import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection that stays too long in one step of a request: waiting for one (idle), reading its
/// head, or reading its body (see ``ConnectionLimits``). Handling a request and writing its response have
/// no deadline here. A blob upload's body has no overall deadline: it is closed when no part of it arrives for
/// the body timeout.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Step {
        case waitingForRequest
        case readingHead
        case readingBody
        case responding
    }

    private let limits: ConnectionLimits
    private var step = Step.waitingForRequest
    private var deadline: Scheduled<Void>?
    /// Whether the body deadline starts again with every part of the body (blob uploads), instead of counting
    /// from the head.
    private var bodyDeadlineRestarts = false

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        enter(.waitingForRequest, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ConnectionEvent.BytesArrived:
            if step == .waitingForRequest { enter(.readingHead, context: context) }
        case is ConnectionEvent.RequestAnswered:
            enter(.waitingForRequest, context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // A blob upload may take far longer than a table request's body; it only has to keep arriving.
            bodyDeadlineRestarts = BlobSettings.isBlobPath(head.path.map { String($0.prefix { $0 != "?" }) } ?? "")
            enter(.readingBody, context: context)
        case .body:
            if bodyDeadlineRestarts, step == .readingBody { enter(.readingBody, context: context) }
        case .end: enter(.responding, context: context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // A response may end before its request's body was read (an early 4xx); the body deadline then stays.
        guard case .end = unwrapOutboundIn(data), step == .responding else {
            context.write(data, promise: promise)
            return
        }
        context.write(data, promise: promise)
        enter(.waitingForRequest, context: context)
        context.triggerUserOutboundEvent(ConnectionEvent.ReadyForRequest(), promise: nil)
    }

    private func enter(_ next: Step, context: ChannelHandlerContext) {
        step = next
        deadline?.cancel()
        deadline = nil
        let timeout: Duration
        switch next {
        case .waitingForRequest: timeout = limits.idleTimeout
        case .readingHead: timeout = limits.requestHeadTimeout
        case .readingBody: timeout = limits.requestBodyTimeout
        case .responding: return
        }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            expire(next, context: context)
        }
    }

    private func expire(_ expired: Step, context: ChannelHandlerContext) {
        guard step == expired else { return }
        deadline = nil
        if expired == .readingHead {
            // No request is being handled yet, so the connection is free for one last, framed answer.
            let head = HTTPResponse(status: .requestTimeout, headerFields: [.connection: "close", .contentLength: "0"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.close(promise: nil)
    }
}
