import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Incremental pulls against a `sync-server` that advertises keyset pulls: the position is the last record's
/// `(updatedAt, id)`, discovered from the server's responses, migrated from older tokens, and given up for
/// plain `updatedAt ge` requests (see the *Wire protocol* article of SyncTables, section *Incremental pull*)
/// when the server stops advertising it.
@Suite("Keyset incremental pull against sync-server")
struct KeysetPullTests {
    @Test func aKeysetPullResumesAfterTheLastRecordsTimeAndIdWithoutSkip() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(table: "TodoItem", items: traceCRows())
            let device = try await harness.device()

            let summary = try await device.todos.pull(queryId: "all", options: PullOptions(pageSize: 2))

            // By (updatedAt, id): one | five four six three two (one time) | seven.
            let requests = try await harness.takeRequests()
            #expect(
                requests.map { $0.queryValue("$filter") ?? "" } == [
                    "(updatedAt ge datetimeoffset'1970-01-01T00:00:00.000Z')",
                    keysetFilter(after: "2000-01-01T00:00:00.000Z", id: "five"),
                    keysetFilter(after: "2000-01-01T00:00:00.000Z", id: "six"),
                    keysetFilter(after: "2000-01-01T00:00:00.000Z", id: "two"),
                    keysetFilter(after: "2000-01-02T00:00:00.000Z", id: "seven"),
                ])
            #expect(
                requests.map { $0.queryValue("$orderby") ?? "" } == ["updatedAt"]
                    + Array(repeating: "updatedAt,id", count: 4))
            #expect(requests.map { $0.queryValue("$skip") } == ["0", nil, nil, nil, nil])
            #expect(requests.allSatisfy { $0.queryValue("$top") == "2" && $0.header("X-ZUMO-FEATURES") == "OL,IP" })
            #expect(summary.received == 7 && summary.requests == 5)
            #expect(summary.deltaToken == (try Timestamp(iso8601: "2000-01-02T00:00:00Z")))
            #expect(try await storedToken(device, "all") == "2000-01-02T00:00:00.000Z|seven")
            #expect(try await device.todos.query().fetchCount() == 7)
        }
    }

    @Test func aWatermarkTokenFromAnEarlierVersionStillWorksAndIsUpgradedByTheFirstPage() async throws {
        try await SyncHarness.with { harness in
            try await harness.controls.seed(table: "TodoItem", items: traceCRows())
            let path = harness.directory.newDatabasePath()
            let first = try await harness.device(path: path)
            try await first.context.close()
            // What earlier versions stored: the watermark alone.
            let store = try SQLiteStore(path: path)
            try await store.write { transaction in
                try transaction.upsert(
                    table: "__config",
                    items: [["id": "deltaToken|TodoItem|all", "value": "2000-01-01T00:00:00.000Z"]])
            }
            try await store.close()
            let device = try await harness.device(path: path)

            try await device.todos.pull(queryId: "all", options: PullOptions(pageSize: 4))

            let filters = try await harness.takeRequests().map { $0.queryValue("$filter") ?? "" }
            #expect(
                filters == [
                    "(updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z')",
                    keysetFilter(after: "2000-01-01T00:00:00.000Z", id: "three"),
                    keysetFilter(after: "2000-01-02T00:00:00.000Z", id: "seven"),
                ])
            #expect(try await storedToken(device, "all") == "2000-01-02T00:00:00.000Z|seven")
            // Everything from the old watermark on; `one` is older than it.
            #expect(try await device.todos.query().fetchAll().map(\.id).sorted() == traceCIds.filter { $0 != "one" })
        }
    }

    @Test func aKeysetTokenKeepsWorkingAgainstAServerThatStoppedAdvertisingKeysets() async throws {
        let directory = try TemporaryDirectory()
        let serverPath = directory.newDatabasePath()
        let devicePath = directory.newDatabasePath()
        try await withServer(path: serverPath, advertisesKeysetPull: true) { server, controls in
            try await controls.seed(table: "TodoItem", items: traceCRows())
            try await pull(devicePath, from: server, pageSize: 2)
        }
        try await withServer(path: serverPath, advertisesKeysetPull: false) { server, controls in
            try await controls.seed(
                table: "TodoItem",
                items: ["eight", "nine", "ten"].map {
                    [
                        "id": .string($0), "text": .string($0), "complete": false,
                        "updatedAt": "2000-01-03T00:00:00.000Z",
                    ]
                })

            let summary = try await pull(devicePath, from: server, pageSize: 2)

            let requests = await controls.requests()
            // The keyset request's answer does not advertise keysets: it is dropped and plain requests take over.
            #expect(
                requests.map { $0.queryValue("$filter") ?? "" } == [
                    keysetFilter(after: "2000-01-02T00:00:00.000Z", id: "seven"),
                    "(updatedAt ge datetimeoffset'2000-01-02T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-03T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-03T00:00:00.000Z')",
                    "(updatedAt ge datetimeoffset'2000-01-03T00:00:00.000Z')",
                ])
            #expect(requests.map { $0.queryValue("$skip") } == [nil, "0", "0", "2", "3"])
            // eight, nine and ten: seven and eight, read again at plain watermarks, are already stored.
            #expect(summary.received == 3 && summary.upserted == 3)
            let device = try await SyncContext(store: try SQLiteStore(path: devicePath))
            let todos = try await device.table(TodoItem.self)
            #expect(try await todos.query().fetchCount() == 10)
            try await device.close()
            let snapshot = try await StoreSnapshot.read(path: devicePath, tables: [])
            #expect(snapshot.config["deltaToken|TodoItem|all"] == "2000-01-03T00:00:00.000Z")
        }
    }

    /// 5,000 rows share one `updatedAt`; between pages another client updates rows already pulled and rows
    /// not yet pulled. The keyset pull ends, receives no record version twice, misses no row, and leaves the
    /// device with exactly the server's rows.
    @Test func fiveThousandRowsWithOneUpdatedAtArePulledExactlyOnceWhileAnotherClientUpdatesRows() async throws {
        var random = SeededGenerator.announced("keyset equal-timestamp pull")
        let scenario = try await EqualRunScenario.run(advertisesKeysetPull: true, random: &random)

        #expect(scenario.duplicates.isEmpty, "records received twice in one pull: \(scenario.duplicates.prefix(5))")
        #expect(scenario.missed.isEmpty, "rows never received: \(scenario.missed.prefix(5))")
        #expect(scenario.local == scenario.server)
        #expect(scenario.local.count == 5000)
        #expect(scenario.requests.dropFirst().allSatisfy { $0.queryValue("$skip") == nil })
    }

    /// The same scenario with plain `updatedAt ge` requests (a server without keysets): updates move rows
    /// already read out of the run of equal timestamps, the `$skip` offsets then jump over rows the pull never
    /// sees, and once the watermark moves past that time they are never pulled. Plain requests guarantee no
    /// loss only while rows at the watermark do not change during the pull.
    @Test func theSkipAlgorithmMissesRowsWhenUpdatesShiftARunOfEqualTimestamps() async throws {
        var random = SeededGenerator.announced("updatedAt ge + $skip equal-timestamp pull")
        let scenario = try await EqualRunScenario.run(advertisesKeysetPull: false, random: &random)

        print("updatedAt ge + $skip pull of 5,000 equal timestamps under updates: \(scenario.missed.count) rows missed")
        #expect(!scenario.missed.isEmpty)
        #expect(scenario.local.count < scenario.server.count)
    }
}

/// Answers a real server cannot be made to give: a scripted server (a mock, to inject the fault) that
/// advertises keyset pulls but answers a keyset request with records that are not after the position.
@Suite("Keyset incremental pull against a misbehaving scripted server (mock)")
struct KeysetPullScriptedServerTests {
    @Test func aKeysetAnswerThatDoesNotMoveForwardIsDroppedAndThePullEndsWithSkip() async throws {
        let records =
            #"[{"id":"a","text":"a","complete":false,"updatedAt":"2001-01-01T00:00:00.000Z"},"#
            + #"{"id":"b","text":"b","complete":false,"updatedAt":"2001-01-01T00:00:00.000Z"}]"#
        let advertised = [("X-SyncTables-Capabilities", "keyset-pull")]
        try await ScriptedHTTPServer.with({ request in
            let query = request.rawQuery ?? ""
            return query.contains("$skip=2")
                ? .json(200, "[]", headers: advertised) : .json(200, records, headers: advertised)
        }) { server in
            let context = try await SyncContext(store: MemoryStore(), client: SyncClient(url: server.baseURL))
            let todos = try await context.table(TodoItem.self)

            let summary = try await todos.pull(queryId: "all", options: PullOptions(pageSize: 2))

            // Plain page, keyset page (the same records: dropped), plain from the time again, then skip 2.
            let queries = server.requests.map { ($0.rawQuery ?? "").removingPercentEncoding ?? "" }
            #expect(queries.count == 4)
            #expect(queries.map { $0.contains("$orderby=updatedAt,id") } == [false, true, false, false])
            #expect(queries.map { $0.contains("$skip=2") } == [false, false, false, true])
            #expect(summary.received == 4 && summary.requests == 4)
            #expect(try await todos.query().fetchCount() == 2)
        }
    }
}

/// The keyset filter a pull sends after the position `(time, id)`.
func keysetFilter(after time: String, id: String) -> String {
    let literal = "datetimeoffset'\(time)'"
    return
        "((updatedAt ge \(literal)) and ((updatedAt gt \(literal)) or ((updatedAt eq \(literal)) and (id gt '\(id)'))))"
}

private let traceCIds = ["five", "four", "one", "seven", "six", "three", "two"]

/// The example of the *Wire protocol* article of SyncTables, section *Incremental pull*: five of seven rows
/// share one `updatedAt`.
private func traceCRows() -> [JSONObject] {
    func row(_ id: String, _ date: String) -> JSONObject {
        ["id": .string(id), "text": .string(id), "complete": false, "updatedAt": .string(date)]
    }
    return [
        row("one", "1999-12-03T15:44:29.000Z"), row("two", "2000-01-01T00:00:00.000Z"),
        row("three", "2000-01-01T00:00:00.000Z"), row("four", "2000-01-01T00:00:00.000Z"),
        row("five", "2000-01-01T00:00:00.000Z"), row("six", "2000-01-01T00:00:00.000Z"),
        row("seven", "2000-01-02T00:00:00.000Z"),
    ]
}

/// The stored delta token text of a device's query id.
private func storedToken(_ device: Device, _ queryId: String) async throws -> String? {
    try await StoreSnapshot.read(path: device.path, tables: []).config["deltaToken|TodoItem|\(queryId)"]
}

/// A file-backed server (so a second one can take over the same data) with test controls.
private func withServer(
    path: String,
    advertisesKeysetPull: Bool,
    _ body: (SyncServer, TestControls) async throws -> Void
) async throws {
    let server = try await SyncServer(
        configuration: SyncServerConfiguration(
            storage: .file(path: path), softDelete: .allTables, advertisesKeysetPull: advertisesKeysetPull
        ).withTestControls())
    try await server.start()
    try await server.stopping { try await body(server, try #require(server.testControls)) }
}

/// One incremental pull of `TodoItem` under query id `all` by a context opened on `path` for it.
@discardableResult
private func pull(_ path: String, from server: SyncServer, pageSize: Int) async throws -> PullSummary {
    let context = try await SyncContext(
        store: try SQLiteStore(path: path), client: SyncClient(url: try #require(server.url)))
    let summary = try await context.table(TodoItem.self).pull(queryId: "all", options: PullOptions(pageSize: pageSize))
    try await context.close()
    return summary
}

/// 5,000 rows with one `updatedAt` pulled incrementally, page size 100, while another client updates
/// 5 random rows after each of the first 40 pages arrives (before the page is applied).
private struct EqualRunScenario {
    /// `id|version` of records received more than once.
    var duplicates: [String] = []
    /// Ids of seeded rows never received.
    var missed: [String] = []
    /// `id → version` on the device and on the server after the pull.
    var local: [String: String] = [:]
    var server: [String: String] = [:]
    var requests: [RecordedRequest] = []

    static func run(advertisesKeysetPull: Bool, random: inout SeededGenerator) async throws -> EqualRunScenario {
        var scenario = EqualRunScenario()
        let picks = (0..<40).map { _ in (0..<5).map { _ in Int.random(in: 0..<5000, using: &random) } }
        try await SyncHarness.with(pageSize: 1000, advertisesKeysetPull: advertisesKeysetPull) { harness in
            let ids = (0..<5000).map { String(format: "r%04d", $0) }
            try await harness.controls.seed(
                table: "Row",
                items: ids.map {
                    ["id": .string($0), "text": "seeded", "updatedAt": "2001-01-01T00:00:00.000Z"]
                })
            let updater = SyncClient(url: harness.url)
            let received = ReceivedRecords()
            let transport = PageObservingTransport(next: try CurlTransport()) { records in
                let page = await received.add(records)
                guard page <= picks.count else { return }
                for index in picks[page - 1] {
                    _ = try await updater.update(
                        table: "Row", item: ["id": .string(ids[index]), "text": .string("edited after page \(page)")],
                        ifMatch: nil)
                }
            }
            let context = try await SyncContext(
                store: try SQLiteStore(path: harness.directory.newDatabasePath()),
                client: SyncClient(url: harness.url, transport: transport))
            let rows = try await context.table(JSONObject.self, named: "Row")
            _ = try await harness.takeRequests()

            try await rows.pull(queryId: "all", options: PullOptions(pageSize: 100))

            scenario.requests = try await harness.takeRequests()
            let versions = await received.versions
            var seen: Set<String> = []
            for version in versions where !seen.insert(version).inserted { scenario.duplicates.append(version) }
            let receivedIds = Set(versions.map { String($0.prefix { $0 != "|" }) })
            scenario.missed = ids.filter { !receivedIds.contains($0) }
            for row in try await rows.query().fetchAll() {
                scenario.local[row["id"]?.stringValue ?? ""] = row["version"]?.stringValue ?? ""
            }
            for row in try await harness.serverRows(table: "Row").values {
                scenario.server[row["id"]?.stringValue ?? ""] = row["version"]?.stringValue ?? ""
            }
            try await context.close()
        }
        return scenario
    }
}

/// Every record the pull received, as `id|version`, and how many pages.
private actor ReceivedRecords {
    var versions: [String] = []
    var pages = 0

    /// Adds a page's records; returns the page's number (from 1).
    func add(_ records: [JSONObject]) -> Int {
        versions += records.map { "\($0["id"]?.stringValue ?? "")|\($0["version"]?.stringValue ?? "")" }
        pages += 1
        return pages
    }
}

/// Sends through a real transport and hands each non-empty table query page to `onPage` before returning
/// it, so a test can change the server between two pages of a pull.
private struct PageObservingTransport: HTTPTransport {
    let next: any HTTPTransport
    let onPage: @Sendable ([JSONObject]) async throws -> Void

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await next.send(request)
        guard request.method == .get, response.status == 200 else { return response }
        let records: [JSONValue]
        switch try JSONValue(parsing: response.body) {
        case .array(let values): records = values
        case .object(let object): records = object["results"]?.arrayValue ?? []
        default: records = []
        }
        let objects = records.compactMap { value -> JSONObject? in
            if case .object(let object) = value { return object }
            return nil
        }
        if !objects.isEmpty { try await onPage(objects) }
        return response
    }
}
