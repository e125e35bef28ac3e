import SyncTablesCore

/// The change feed's part of a ``SyncServerConfiguration``, and how it is advertised.
enum ChangeFeedSettings {
    /// Where feeds are served.
    static let path = "/sync/changes"
    /// The `Retry-After` of a feed refused because too many are open or the server is draining, in seconds.
    static let retryAfterSeconds = 5

    /// A duration in seconds as JSON: an integer when whole (`15`), else a number (`0.5`).
    static func seconds(_ duration: Duration) -> JSONValue {
        let seconds = duration.seconds
        if let whole = Int64(exactly: seconds) { return .integer(whole) }
        return .double(seconds)
    }

    /// The capabilities document's `changes` entry, or `nil` when feeds are off.
    static func capability(_ configuration: SyncServerConfiguration) -> JSONValue? {
        guard configuration.offersChangeFeeds else { return nil }
        return .object(
            JSONObject([
                "path": .string(path), "heartbeatSeconds": seconds(configuration.changeHeartbeat),
            ]))
    }
}
