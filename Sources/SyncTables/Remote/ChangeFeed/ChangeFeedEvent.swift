/// One event of a server's change feed, as ``ChangeFeed`` reads it.
///
/// Positions are the server's opaque marks in its change history (the events' ids): give the last one
/// received to ``SyncClient/changeFeed(tables:after:logger:)`` to resume the feed where it stopped.
@_spi(SyncTablesTools) public enum ChangeFeedEvent: Sendable, Hashable {
    /// The feed is open; changes after `position` follow.
    case ready(position: String?)
    /// Items of `table` changed on the server: pull it.
    case changed(table: String, position: String?)
    /// The server cannot say what changed since the position the feed was resumed from (it forgot that far
    /// back, or its history was reset): pull every table the client syncs.
    case reset(position: String?)
    /// The connection is alive; nothing changed.
    case heartbeat

    /// The feed position after this event, when the server gave one (a heartbeat carries none).
    @_spi(SyncTablesTools) public var position: String? {
        switch self {
        case .ready(let position), .changed(_, let position), .reset(let position): position
        case .heartbeat: nil
        }
    }
}
