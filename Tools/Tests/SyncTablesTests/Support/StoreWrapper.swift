@_spi(SyncTablesTools) @testable import SyncTables

/// A test store that hands every call to `base`, except the ones it implements itself (its `write`).
protocol StoreWrapper: LocalStore {
    var base: any LocalStore { get }
}

extension StoreWrapper {
    func defineTable(_ definition: TableDefinition) async throws { try await base.defineTable(definition) }
    func tableDefinitions() async throws -> [TableDefinition] { try await base.tableDefinitions() }
    func read(_ query: StoreQuery) async throws -> [JSONObject] { try await base.read(query) }
    func count(_ query: StoreQuery) async throws -> Int { try await base.count(query) }
    func lookup(table: String, id: String) async throws -> JSONObject? {
        try await base.lookup(table: table, id: id)
    }
    func close() async throws { try await base.close() }
}
