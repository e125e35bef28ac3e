import Foundation

@_spi(SyncTablesTools) @testable import SyncTables

/// The typed item most context tests use.
struct ContextTodo: SyncItem, Equatable {
    var id: String
    var text: String
    var complete: Bool = false
    var priority: Int?
    var due: Date?
    var version: String?
    var createdAt: Date?
    var updatedAt: Date?

    init(
        id: String = "",
        text: String,
        complete: Bool = false,
        priority: Int? = nil,
        due: Date? = nil,
        version: String? = nil
    ) {
        self.id = id
        self.text = text
        self.complete = complete
        self.priority = priority
        self.due = due
        self.version = version
    }
}

/// Everything a local write can change, captured to prove a rejected write changed nothing.
struct ContextSnapshot: Equatable {
    var rows: [JSONObject]
    var operations: [PendingOperation]
    var errorRows: [JSONObject]

    static func take(_ context: SyncContext, table: String = "ContextTodo") async throws -> ContextSnapshot {
        ContextSnapshot(
            rows: try await context.store.read(StoreQuery(table: table)),
            operations: try await context.pendingOperations(),
            errorRows: try await context.store.read(StoreQuery(table: "__errors"))
        )
    }
}

extension SyncContext {
    /// Stores rows as a pull would, queueing nothing: items that `update` may then change.
    func storePulled(_ items: [JSONObject], table: String = "ContextTodo") async throws {
        try await store.write { try $0.upsert(table: table, items: items) }
    }
}
