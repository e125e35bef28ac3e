import Foundation
import SyncTables
import Testing

@testable import SyncTablesServer

/// Writes interleaved with the pages of incremental pulls, in 100 seeded orders, on the backend the suite runs on
/// (SQLite, or PostgreSQL with `SYNC_TEST_BACKEND=postgres`). Two clients pull: one with the v2 clients'
/// `updatedAt ge T` + `$skip` algorithm (PROTOCOL §5.7), one following keyset next links. Every row a client
/// holds at the end is the server's latest version (nothing missed), and no pull returns a row version twice
/// (except the §5.7 client's expected re-fetch of the row at its watermark). The seed of a failing order is in
/// the failure message.
@Suite("Incremental pulls interleaved with writes")
struct PullInterleavingTests {
    @Test("100 seeded interleavings of writes and pull pages: zero rows missed, zero returned twice in one pull")
    func seededInterleavings() async throws {
        try await ServerHarness.with({
            $0.softDelete = .allTables
            $0.pageSize = 4
        }) { server in
            try await server.withConnection { connection in
                for seed in UInt64(0)..<100 {
                    try await Self.run(seed: seed, connection: connection)
                }
            }
        }
    }

    private static func run(seed: UInt64, connection: ServerHarness.Connection) async throws {
        var random = SeededGenerator(seed: 0x1A7E_0000 + seed)
        let table = "pull\(seed)"
        var truth: [String: JSONObject] = [:]
        var skipClient = SkipPuller(table: table)
        var keysetClient = KeysetPuller(table: table, port: connection.port)
        var writesLeft = 24
        while writesLeft > 0 {
            // The §5.7 client's `$skip` step follows its previous page at once: a rewrite of the row at its
            // watermark in between shifts what `$skip` skips (a limit of that algorithm; keyset links have none).
            let choice = skipClient.isSkipping ? 0 : Int.random(in: 0..<3, using: &random)
            switch choice {
            case 0:
                try await skipClient.step(connection)
            case 1:
                try await keysetClient.step(connection)
            default:
                try await write(&truth, table: table, connection: connection, random: &random)
                writesLeft -= 1
            }
        }
        for _ in 0..<2 {  // the second pass starts a fresh pull if the first ended mid-way
            try await skipClient.finish(connection)
            try await keysetClient.finish(connection)
        }
        for (name, problems, held) in [
            ("§5.7", skipClient.problems, skipClient.held), ("keyset", keysetClient.problems, keysetClient.held),
        ] {
            #expect(problems.isEmpty, "seed \(seed), \(name) client: \(problems)")
            let missed = truth.filter { id, row in held[id] != row.string("version") }.keys.sorted()
            #expect(missed.isEmpty, "seed \(seed), \(name) client missed \(missed)")
        }
    }

    /// One random insert, update, delete or undelete; `truth` keeps the server's answer.
    private static func write(
        _ truth: inout [String: JSONObject], table: String, connection: ServerHarness.Connection,
        random: inout SeededGenerator
    ) async throws {
        let id = "r\(Int.random(in: 0..<8, using: &random))"
        let response: HTTPResult
        switch (truth[id], Int.random(in: 0..<3, using: &random)) {
        case (nil, _):
            response = try await connection.send(.post, "/tables/\(table)", json: #"{"id":"\#(id)","n":0}"#)
        case (let row?, _) where row["deleted"] == .bool(true):
            response = try await connection.send(.post, "/tables/\(table)/\(id)")
        case (_, 0):
            response = try await connection.send(.delete, "/tables/\(table)/\(id)")
        default:
            let n = Int.random(in: 0..<1000, using: &random)
            response = try await connection.send(.patch, "/tables/\(table)/\(id)", json: #"{"n":\#(n)}"#)
        }
        try #require((200...201).contains(response.status), "\(response.status) \(response.text)")
        truth[id] = try response.object()
    }
}

/// The v2 clients' incremental pull (PROTOCOL §5.7): `updatedAt ge T`, `$skip` while the watermark stays.
private struct SkipPuller {
    let table: String
    var held: [String: String] = [:]
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

/// A client that follows the server's keyset next links, then starts its next pull at `updatedAt ge` the newest
/// row it holds.
private struct KeysetPuller {
    let table: String
    let port: Int
    var held: [String: String] = [:]
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
