import NIOCore

/// Closes a change feed's connection as soon as the client closes its side of it.
///
/// The server allows half-closed connections, so a client that goes away is otherwise noticed only when the
/// next heartbeat fails to write, and its feed would hold a place under the feed limit until then. A feed
/// client never sends anything after its request, so the end of its input means it is gone. Installed while a
/// feed streams, and removed when it ends (a connection kept alive for other requests behaves as before).
final class FeedDisconnectWatcher: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { context.close(promise: nil) }
        context.fireUserInboundEventTriggered(event)
    }
}
