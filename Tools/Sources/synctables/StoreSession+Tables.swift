@_spi(SyncTablesTools) import SyncTables

extension StoreSession {
    /// The table's name as the store spells it, or `nil` when the store has no such table; a name that is
    /// not a valid table name is a usage error.
    func storedTableName(_ table: String) async throws -> String? {
        try SyncTableName.validate(table)
        let definitions = try await context.store.tableDefinitions()
        return definitions.first { $0.name.lowercased() == table.lowercased() }?.name
    }

    /// The table's name as the store spells it; a usage error when the store has no such table, so a
    /// misspelled name is reported instead of printing an empty result.
    func existingTableName(_ table: String) async throws -> String {
        guard let name = try await storedTableName(table) else {
            throw CommandFailure(.usage, "no table '\(table)' in the store")
        }
        return name
    }

    /// Makes sure the server has `table` before a first pull creates it in the store: a misspelled name
    /// would otherwise leave an empty table behind, listed by `status` from then on. A server that answers
    /// any table name (as `sync-server` does, its tables being schemaless) shows a table by having records
    /// in it, deleted ones included; pulling a table that has none would store nothing anyway.
    static func requireServerTable(_ table: String, client: SyncClient) async throws {
        let page: RemotePage
        do {
            page = try await client.query(table: table, queryString: "$top=1&__includeDeleted=true")
        } catch let error as HTTPStatusError where error.status == 404 {
            throw CommandFailure(.usage, "the server has no table '\(table)'")
        } catch let error as HTTPStatusError {
            throw CommandFailure(classifying: SyncError.server(error))
        } catch let error as TransportError {
            throw CommandFailure(classifying: SyncError.network(error))
        }
        guard !page.items.isEmpty else {
            throw CommandFailure(
                .usage, "no table '\(table)' in the store, and the server has no records in it; check the name")
        }
    }
}
