import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the connection, which the fault injector closes to
/// drop a request without answering it.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
