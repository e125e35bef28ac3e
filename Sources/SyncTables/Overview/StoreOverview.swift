/// A consistent snapshot of a context's store: every user table, the queue, push errors and pull state.
///
/// ```swift
/// let overview = try await context.overview()
/// print("schema \(overview.schemaVersion), \(overview.pendingOperations) pending, \(overview.pushErrors) errors")
/// for table in overview.tables { print(table.name, table.rows, table.lastPull?.iso8601 ?? "never pulled") }
/// ```
public struct StoreOverview: Sendable, Hashable {
    /// The layout version of the store's system tables.
    public var schemaVersion: Int
    /// Every user table, sorted by name.
    public var tables: [TableOverview]
    /// Operations waiting to be pushed, across all tables.
    public var pendingOperations: Int
    /// Stored push errors, across all tables.
    public var pushErrors: Int
    /// Attachment files: on the device, waiting for upload, not downloaded.
    public var attachments = AttachmentOverview()

    /// Creates an overview.
    public init(schemaVersion: Int, tables: [TableOverview], pendingOperations: Int, pushErrors: Int) {
        self.schemaVersion = schemaVersion
        self.tables = tables
        self.pendingOperations = pendingOperations
        self.pushErrors = pushErrors
    }
}
