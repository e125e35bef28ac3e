import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel with ``MethodGuard`` in front of its HTTP decoder (the
/// ``RequestDeadlineHandler`` goes in as one of its additional channel handlers).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel

    /// The server builder: HTTP/1 with the deadlines of `limits`.
    static func builder(limits: ConnectionLimits) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                http1: HTTP1Channel(
                    responder: responder,
                    configuration: HTTP1Channel.Configuration(
                        additionalChannelHandlers: [RequestDeadlineHandler(limits: limits)]
                    )
                )
            )
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(MethodGuard(), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
