import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the connection, which the fault injector closes to
/// drop a request without answering it.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel
    /// What the request's credentials prove, worked out once when the request arrives (a batch's operations
    /// share their batch's).
    var identity: Result<Caller, AuthenticationFailure>?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
