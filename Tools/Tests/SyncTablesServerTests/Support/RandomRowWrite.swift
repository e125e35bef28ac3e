import HTTPTypes

@_spi(SyncTablesTools) @testable import SyncTables

/// One random write to one row, chosen from the row's current server version: an insert when it is absent, an
/// undelete when it is soft-deleted, else a delete or an update. The writes of the seeded interleaving tests.
struct RandomRowWrite: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let json: String?

    /// `current` is the row's latest version (`nil`: absent); no other write to the row may be in flight.
    init(table: String, id: String, current: JSONObject?, random: inout SeededGenerator) {
        switch (current, Int.random(in: 0..<3, using: &random)) {
        case (nil, _):
            (method, path, json) = (.post, "/tables/\(table)", #"{"id":"\#(id)","n":0}"#)
        case (let row?, _) where row["deleted"] == .bool(true):
            (method, path, json) = (.post, "/tables/\(table)/\(id)", nil)
        case (_, 0):
            (method, path, json) = (.delete, "/tables/\(table)/\(id)", nil)
        default:
            let n = Int.random(in: 0..<1000, using: &random)
            (method, path, json) = (.patch, "/tables/\(table)/\(id)", #"{"n":\#(n)}"#)
        }
    }
}
