import NIOCore

/// Answers requests whose method the server does not serve (`CONNECT`, `TRACE`, made-up methods) with a
/// framed 405 and keeps the connection open, before the HTTP decoder sees them: it would treat `CONNECT` as a
/// protocol switch and refuse unknown methods by closing the connection.
///
/// It reads the method at the start of each request (``ConnectionEvent/ReadyForRequest`` says when one may
/// start), then either passes the bytes on untouched or skips that request's head and `Content-Length` body
/// itself. Every read also sends ``ConnectionEvent/BytesArrived`` on, for the head deadline.
final class MethodGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The methods passed on to the server.
    static let servedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    /// A head this long without its end is handed to the decoder, which enforces its own limits.
    private static let longestRefusedHead = 16 * 1024

    private enum State {
        /// The next bytes start a request; `pending` holds those read so far (not yet a whole method).
        case atRequestStart(pending: ByteBuffer?)
        /// Inside a served request: bytes go to the decoder.
        case passing
        /// Skipping the head of a refused request.
        case refusingHead(method: String, pending: ByteBuffer)
        /// Skipping the body of a refused request.
        case skippingBody(method: String, remaining: Int)
    }

    private var state = State.atRequestStart(pending: nil)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireUserInboundEventTriggered(ConnectionEvent.BytesArrived())
        process(unwrapInboundIn(data), context: context)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ConnectionEvent.ReadyForRequest else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        if case .passing = state { state = .atRequestStart(pending: nil) }
        promise?.succeed()
    }

    private func process(_ incoming: ByteBuffer, context: ChannelHandlerContext) {
        var buffer = incoming
        while buffer.readableBytes > 0 {
            switch state {
            case .passing:
                context.fireChannelRead(wrapInboundOut(buffer))
                return
            case .atRequestStart(var pending):
                pending.setOrWriteBuffer(&buffer)
                guard let pendingBytes = pending, let method = Self.method(in: pendingBytes) else {
                    state = .atRequestStart(pending: pending)
                    return
                }
                if let method, !Self.servedMethods.contains(method) {
                    state = .refusingHead(method: method, pending: ByteBuffer())
                    buffer = pendingBytes
                } else {
                    state = .passing
                    context.fireChannelRead(wrapInboundOut(pendingBytes))
                    return
                }
            case .refusingHead(let method, var pending):
                pending.writeBuffer(&buffer)
                guard let headEnd = pending.readableBytesView.firstRange(of: Self.headTerminator) else {
                    if pending.readableBytes > Self.longestRefusedHead {
                        refuse(method, context: context, closing: true)
                    } else {
                        state = .refusingHead(method: method, pending: pending)
                    }
                    return
                }
                let headLength = headEnd.upperBound - pending.readerIndex
                let head = String(decoding: pending.readableBytesView.prefix(headLength), as: UTF8.self)
                pending.moveReaderIndex(forwardBy: headLength)
                guard let bodyLength = Self.bodyLength(head) else {
                    refuse(method, context: context, closing: true)
                    return
                }
                state = .skippingBody(method: method, remaining: bodyLength)
                buffer = pending
            case .skippingBody(let method, let remaining):
                let skipped = min(remaining, buffer.readableBytes)
                buffer.moveReaderIndex(forwardBy: skipped)
                if remaining > skipped {
                    state = .skippingBody(method: method, remaining: remaining - skipped)
                    return
                }
                refuse(method, context: context, closing: false)
            }
        }
        // A refused request that ended exactly at the end of the bytes read: answer it now.
        if case .skippingBody(let method, 0) = state { refuse(method, context: context, closing: false) }
    }

    /// Writes the 405 and waits for the next request (or closes, when the request cannot be skipped safely).
    private func refuse(_ method: String, context: ChannelHandlerContext, closing: Bool) {
        let body = #"{"error":"The method \#(method) is not allowed; use GET, POST, PATCH or DELETE."}"#
        var head = "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\n"
        head += "Allow: GET, HEAD, POST, PATCH, DELETE, OPTIONS\r\nContent-Length: \(body.utf8.count)\r\n"
        head += closing ? "Connection: close\r\n\r\n" : "\r\n"
        let response = context.channel.allocator.buffer(string: head + body)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(response)), promise: nil)
        state = .atRequestStart(pending: nil)
        if closing {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(ConnectionEvent.RequestAnswered())
        }
    }

    private static let headTerminator: [UInt8] = Array("\r\n\r\n".utf8)

    /// The method at the start of a request: `nil` while more bytes are needed, `.some(nil)` when the text
    /// does not start with a method token followed by a space (the decoder answers that).
    private static func method(in bytes: ByteBuffer) -> String?? {
        let view = bytes.readableBytesView.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
        guard let space = view.firstIndex(of: UInt8(ascii: " ")) else {
            return view.count > 32 ? .some(nil) : nil
        }
        let token = view[view.startIndex..<space]
        guard !token.isEmpty, token.count <= 32, token.allSatisfy(isTokenCharacter) else { return .some(nil) }
        return .some(String(decoding: token, as: UTF8.self))
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
    }

    /// The body length a refused request's head declares; `nil` when it cannot be skipped (chunked, invalid).
    private static func bodyLength(_ head: String) -> Int? {
        var length = 0
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased()
            let value = parts[1].filter { $0 != " " && $0 != "\t" }
            if name == "transfer-encoding" { return nil }
            if name == "content-length" {
                guard let declared = Int(value), declared >= 0 else { return nil }
                length = declared
            }
        }
        return length
    }
}
