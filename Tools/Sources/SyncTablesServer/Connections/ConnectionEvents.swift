/// The events ``MethodGuard`` (in front of the HTTP decoder) and ``RequestDeadlineHandler`` (behind it) send
/// each other through a connection's pipeline.
enum ConnectionEvent {
    /// Inbound: bytes arrived, so a request head may have begun.
    struct BytesArrived {}
    /// Inbound: ``MethodGuard`` answered a request itself; the connection waits for the next one.
    struct RequestAnswered {}
    /// Outbound: the last request was read and answered, so the next bytes start a new request.
    struct ReadyForRequest {}
}
