/// One event of a `text/event-stream` body (Server-Sent Events), as the HTML standard's parsing rules dispatch it.
@_spi(SyncTablesTools) public struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field, or `message` when the event named none.
    @_spi(SyncTablesTools) public var type: String
    /// The `data` lines joined with line feeds.
    @_spi(SyncTablesTools) public var data: String
    /// The stream's last event ID when the event was dispatched: the event's own `id`, or the last one an
    /// earlier event gave (`""` when none did, or an `id` field cleared it).
    @_spi(SyncTablesTools) public var lastEventID: String

    /// Creates an event.
    @_spi(SyncTablesTools) public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
