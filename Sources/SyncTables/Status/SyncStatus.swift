/// A consistent snapshot of a context's store: every user table, the queue, push errors and pull state.
///
/// ```swift
/// let status = try await context.status()
/// print("schema \(status.schemaVersion), \(status.pendingOperations) pending, \(status.pushErrors) errors")
/// for table in status.tables { print(table.name, table.rows, table.lastPull?.iso8601 ?? "never pulled") }
/// ```
public struct SyncStatus: Sendable, Hashable {
    /// The layout version of the store's system tables.
    public var schemaVersion: Int
    /// Every user table, sorted by name.
    public var tables: [TableStatus]
    /// Operations waiting to be pushed, across all tables.
    public var pendingOperations: Int
    /// Stored push errors, across all tables.
    public var pushErrors: Int

    /// Creates a status.
    public init(schemaVersion: Int, tables: [TableStatus], pendingOperations: Int, pushErrors: Int) {
        self.schemaVersion = schemaVersion
        self.tables = tables
        self.pendingOperations = pendingOperations
        self.pushErrors = pushErrors
    }
}
