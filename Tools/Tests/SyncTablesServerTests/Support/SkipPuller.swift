@_spi(SyncTablesTools) @testable import SyncTables

/// The v2 clients' incremental pull (see the *Wire protocol* article of SyncTables, section *Incremental pull*):
/// `updatedAt ge T`, `$skip` while the watermark stays, pages of `$top=4`.
struct SkipPuller {
    let table: String
    /// The version of each row the client holds.
    var held: [String: String] = [:]
    /// Row versions one pull returned twice.
    var problems: [String] = []
    private var token = "1970-01-01T00:00:00.000Z"
    private var skip = 0
    private var seen: Set<String> = []
    private var pulling = false

    init(table: String) { self.table = table }

    /// Whether the next page skips rows at the watermark.
    var isSkipping: Bool { pulling && skip > 0 }

    /// Fetches the next page of the current pull (starting one when none runs); `true` when the pull ended.
    @discardableResult
    mutating func step(_ connection: ServerHarness.Connection) async throws -> Bool {
        if !pulling {
            pulling = true
            skip = 0
            seen = []
        }
        let query =
            "$filter=(updatedAt%20ge%20datetimeoffset'\(token)')&$orderby=updatedAt&$skip=\(skip)&$top=4"
            + "&__includeDeleted=true"
        let page = try await connection.send(.get, "/tables/\(table)?\(query)").objects()
        guard !page.isEmpty else {
            pulling = false
            return true
        }
        var newest = token
        for row in page {
            let id = row.string("id") ?? "?"
            let version = row.string("version") ?? "?"
            let updatedAt = row.string("updatedAt") ?? ""
            // Rows at the watermark come again after it moves (`ge`); any other repeat is a duplicate.
            if !seen.insert(id + "/" + version).inserted && updatedAt != token {
                problems.append("\(id) v\(version) twice in one pull")
            }
            held[id] = version
            newest = max(newest, updatedAt)
        }
        if newest > token {
            token = newest
            skip = 0
        } else {
            skip += page.count
        }
        return false
    }

    /// Runs pages until the current (or a new) pull ends.
    mutating func finish(_ connection: ServerHarness.Connection) async throws {
        while try await !step(connection) {}
    }
}
