/// What a purge would do, worked out without changing anything (a dry run).
///
/// ```swift
/// let preview = try await context.purgePreview(table: "TodoItem")
/// if preview.wouldBeRefused { print("\(preview.pendingOperations) operations pending; use force") }
/// print("would remove \(preview.summary.rows) rows")
/// ```
public struct PurgePreview: Sendable, Hashable {
    /// The purged table.
    public var table: String
    /// What a forced purge would remove: rows, operations, errors and tokens.
    public var summary: PurgeSummary
    /// Operations of the whole table waiting to be pushed; any of them makes an unforced purge refuse.
    public var pendingOperations: Int

    /// Creates a preview.
    public init(table: String, summary: PurgeSummary, pendingOperations: Int) {
        self.table = table
        self.summary = summary
        self.pendingOperations = pendingOperations
    }

    /// `true` when a purge without `force` would throw ``SyncError/pendingOperations(table:)``.
    public var wouldBeRefused: Bool { pendingOperations > 0 }
}
