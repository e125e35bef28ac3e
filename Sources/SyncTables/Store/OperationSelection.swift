/// Which queued operations a ``StoreTransaction`` queue read selects; every condition given must hold.
///
/// Results always come in ascending ``PendingOperation/sequence`` (push order).
package struct OperationSelection: Sendable, Hashable {
    /// Only operations of these tables (exact names); `nil` for every table.
    package var tables: Set<String>?
    /// Only operations of these item ids; `nil` for every item.
    package var itemIds: Set<String>?
    /// Only the operation with this operation id.
    package var operationId: String?
    /// Only operations with a sequence greater than this.
    package var afterSequence: Int?
    /// At most this many operations (the first ones in push order); `nil` for no limit.
    package var limit: Int?

    /// A selection; with no arguments it selects every queued operation.
    package init(
        tables: Set<String>? = nil,
        itemIds: Set<String>? = nil,
        operationId: String? = nil,
        afterSequence: Int? = nil,
        limit: Int? = nil
    ) {
        self.tables = tables
        self.itemIds = itemIds
        self.operationId = operationId
        self.afterSequence = afterSequence
        self.limit = limit
    }

    /// Every queued operation.
    package static let all = OperationSelection()

    /// Whether `operation` meets every condition except ``limit``.
    package func matches(_ operation: PendingOperation) -> Bool {
        if let tables, !tables.contains(operation.table) { return false }
        if let itemIds, !itemIds.contains(operation.itemId) { return false }
        if let operationId, operation.id != operationId { return false }
        if let afterSequence, operation.sequence <= afterSequence { return false }
        return true
    }
}
