import Foundation

/// Whether a ``SyncEngine`` hears of server changes as they happen: its connection to the server's change
/// feed (see <doc:TheSyncEngine>).
///
/// ```swift
/// for await status in engine.statuses where status.changeFeed == .live {
///     print("changes on the server now show up within a moment")
/// }
/// ```
public enum ChangeFeedStatus: Sendable, Hashable, CustomStringConvertible {
    /// No feed: the engine is stopped, offline, in the background or blocked on credentials, it has no
    /// ``SyncContext/client``, or no definition syncs on ``SyncTrigger/serverChange``.
    case off
    /// Connecting, or connecting again, to the server's feed.
    case connecting
    /// Connected: a change on the server pulls the definitions of its table within a moment.
    case live
    /// The server offers no change feed: definitions sync by their intervals and other triggers.
    case unavailable
    /// The connection failed or ended; the next attempt is at `until`. Intervals and the other triggers
    /// sync meanwhile.
    case retrying(until: Date)

    /// The status in a few words, e.g. `live`.
    public var description: String {
        switch self {
        case .off: "off"
        case .connecting: "connecting"
        case .live: "live"
        case .unavailable: "unavailable (the server has no change feed)"
        case .retrying(let until): "retrying at \(until.formatted(.iso8601))"
        }
    }
}
