@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer

/// The test-only control surface of a `SyncServer`: scripted faults, a request log, seeding, reset, and dropping
/// the open change feeds.
///
/// Available only on a server whose configuration has `enableTestControls` set (an extension of this
/// module); the same operations are served over HTTP under `/__test`. Never enable it in production: anyone
/// who can reach the server can rewrite data.
///
/// ```swift
/// import SyncTablesServerTesting
///
/// let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory).withTestControls())
/// let controls = try #require(server.testControls)
/// await controls.addFault(FaultRule(method: "POST", path: "/tables/todo", action: .lostResponse))
/// ```
public actor TestControls {
    private var rules: [ScriptedRule] = []
    private var log: [RecordedRequest] = []
    private let tables: ServerTables

    init(tables: ServerTables) {
        self.tables = tables
    }

    /// Adds a fault; rules are checked in the order they were added and the first that fires wins.
    public func addFault(_ rule: FaultRule) {
        rules.append(ScriptedRule(rule: rule))
    }

    /// Removes every fault.
    public func clearFaults() {
        rules.removeAll()
    }

    /// Every request received since the last reset, oldest first (control requests under `/__test` excluded).
    public func requests() -> [RecordedRequest] {
        log
    }

    /// Forgets the recorded requests.
    public func clearRequests() {
        log.removeAll()
    }

    /// Stores rows exactly as given, including `updatedAt`, `createdAt`, `deleted` and `version`; missing system
    /// properties are filled in. Returns the stored rows.
    @discardableResult
    public func seed(table: String, items: [JSONObject]) async throws -> [JSONObject] {
        try await tables.seed(table: table, items: items)
    }

    /// Ends every open change feed (`GET /sync/changes`) at once by closing its connection, as a network
    /// failure would, and returns how many were open; clients then reconnect with their `Last-Event-ID`.
    @discardableResult
    public func dropChangeFeeds() -> Int {
        tables.dropChangeFeeds()
    }

    /// Clears faults, the request log and every row of every table.
    public func reset() async throws {
        rules.removeAll()
        log.removeAll()
        try await tables.removeAllRows()
    }

    // MARK: Used by the middleware

    func record(_ request: RecordedRequest) {
        log.append(request)
    }

    /// Counts this request against every matching rule and returns the action of the first rule that fires.
    func fault(method: String, path: String) -> FaultAction? {
        var fired: FaultAction?
        var remaining: [ScriptedRule] = []
        for var scripted in rules {
            guard scripted.rule.matches(method: method, path: path) else {
                remaining.append(scripted)
                continue
            }
            scripted.matched += 1
            let fires = fired == nil && (scripted.rule.occurrence.map { $0 == scripted.matched } ?? true)
            if fires { fired = scripted.rule.action }
            // A rule for one occurrence is spent once it fired; repeating rules stay.
            if !(fires && scripted.rule.occurrence != nil) { remaining.append(scripted) }
        }
        rules = remaining
        return fired
    }

    private struct ScriptedRule {
        var rule: FaultRule
        var matched = 0
    }
}
