import Foundation

/// The sync engine's persisted cycle backoff: failed cycles in a row and when the next may run, so a
/// restarted app waits out the rest instead of hammering a failing server. One row in `__config`.
struct EngineBackoff: SingleSystemRecord, Hashable {
    static var table: String { SystemTables.config }
    /// The row's id.
    static let id = "engineBackoff"

    /// Failed cycles in a row.
    var failures: Int
    /// When the next cycle may run.
    var until: Date

    init(failures: Int, until: Date) {
        self.failures = failures
        self.until = until
    }

    var row: JSONObject {
        [
            "id": .string(Self.id), "failures": .integer(Int64(failures)),
            "until": .string(Timestamp(date: until).iso8601),
        ]
    }

    init(_ row: SystemRow) throws(SyncError) {
        self.init(failures: try row.integer("failures"), until: try row.timestamp("until").date)
    }
}
