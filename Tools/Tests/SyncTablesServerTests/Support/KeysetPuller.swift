@_spi(SyncTablesTools) @testable import SyncTables

/// A client that follows the server's keyset next links, then starts its next pull at `updatedAt ge` the newest
/// row it holds.
struct KeysetPuller {
    let table: String
    let port: Int
    /// The version of each row the client holds.
    var held: [String: String] = [:]
    /// Row versions one pull returned twice.
    var problems: [String] = []
    private var token = "1970-01-01T00:00:00.000Z"
    private var next: String?
    private var seen: Set<String> = []

    init(table: String, port: Int) {
        self.table = table
        self.port = port
    }

    @discardableResult
    mutating func step(_ connection: ServerHarness.Connection) async throws -> Bool {
        let path: String
        if let next {
            path = next
        } else {
            seen = []
            path =
                "/tables/\(table)?$filter=(updatedAt%20ge%20datetimeoffset'\(token)')&$orderby=updatedAt"
                + "&__includeDeleted=true"
        }
        let response = try await connection.send(.get, path)
        for row in try response.objects() {
            let id = row.string("id") ?? "?"
            let version = row.string("version") ?? "?"
            if !seen.insert(id + "/" + version).inserted { problems.append("\(id) v\(version) twice in one pull") }
            held[id] = version
            token = max(token, row.string("updatedAt") ?? "")
        }
        next = response.header("Link").map { link in
            String(link.prefix { $0 != ";" }.dropFirst("http://127.0.0.1:\(port)".count))
        }
        return next == nil
    }

    mutating func finish(_ connection: ServerHarness.Connection) async throws {
        while try await !step(connection) {}
    }
}
