import NIOCore

/// One client connection and its connection to the server; touched only on their (shared) event loop.
final class ProxiedConnection {
    let client: any Channel
    let server: any Channel
    /// Cut the connection once this many response bytes were forwarded (a drop rule fired on its request).
    var dropAfterResponseBytes: Int?
    var responseBytes = 0
    /// Set once a drop rule's byte count was reached: nothing more is read from either side.
    var isCutting = false
    /// Set once the connection was cut: nothing in transit is delivered.
    var isCut = false

    init(client: any Channel, server: any Channel) {
        self.client = client
        self.server = server
    }

    func cut() {
        isCut = true
        client.close(promise: nil)
        server.close(promise: nil)
    }
}

/// Forwards what one side sends to the other after the link's delay, in order, each chunk queued behind
/// the previous one for its transmission time when the link has a capacity.
final class DelayingForwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    enum Direction {
        /// Client to server.
        case request
        /// Server to client.
        case response
    }

    private let peer: any Channel
    private let direction: Direction
    private let link: SlowLinkConfiguration
    private let connection: ProxiedConnection
    private let faults: DropRules
    /// When the link in this direction is free again (the end of the last chunk's transmission).
    private var busyUntil = NIODeadline.uptimeNanoseconds(0)
    /// When the last chunk reaches the peer.
    private var lastArrival = NIODeadline.uptimeNanoseconds(0)
    private var inTransit = CircularBuffer<ByteBuffer>()

    init(
        peer: any Channel, direction: Direction, link: SlowLinkConfiguration, connection: ProxiedConnection,
        faults: DropRules
    ) {
        self.peer = peer
        self.direction = direction
        self.link = link
        self.connection = connection
        self.faults = faults
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard !connection.isCutting else { return }
        switch direction {
        case .request:
            if connection.dropAfterResponseBytes == nil, !faults.isEmpty, let rule = faults.take(matching: buffer) {
                connection.dropAfterResponseBytes = rule.afterBytes
            }
            send(buffer, on: context.eventLoop)
        case .response:
            guard let limit = connection.dropAfterResponseBytes else {
                send(buffer, on: context.eventLoop)
                return
            }
            let allowed = max(0, limit - connection.responseBytes)
            connection.responseBytes += buffer.readableBytes
            guard buffer.readableBytes >= allowed else {
                send(buffer, on: context.eventLoop)
                return
            }
            if allowed > 0, let head = buffer.readSlice(length: allowed) { send(head, on: context.eventLoop) }
            // Cut once the allowed bytes have reached the client.
            let connection = self.connection
            connection.isCutting = true
            context.eventLoop.assumeIsolated().scheduleTask(deadline: max(lastArrival, .now())) {
                connection.cut()
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The peer learns of the close after the bytes still on the link.
        let peer = self.peer
        let arrival = max(lastArrival, .now() + Self.amount(link.oneWayDelay))
        context.eventLoop.assumeIsolated().scheduleTask(deadline: arrival) { peer.close(promise: nil) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func send(_ buffer: ByteBuffer, on eventLoop: any EventLoop) {
        let now = NIODeadline.now()
        let start = max(now, busyUntil)
        busyUntil = start + Self.amount(link.transmissionTime(byteCount: buffer.readableBytes))
        lastArrival = busyUntil + Self.amount(link.oneWayDelay)
        inTransit.append(buffer)
        // Each task delivers the oldest chunk, so chunks arrive in order whatever order equal deadlines run in.
        eventLoop.assumeIsolated().scheduleTask(deadline: lastArrival) { [self] in
            guard let chunk = inTransit.popFirst(), !connection.isCut else { return }
            peer.writeAndFlush(chunk, promise: nil)
        }
    }

    private static func amount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
