@_spi(SyncTablesTools) import SyncTablesCore

/// Parents before children: which queued operations wait for the insert of a parent they reference, as the
/// tables' stored ``SyncRules`` declare (``ParentReference``). A push makes one when it starts, so the rules
/// are read once per push; status reads make their own.
///
/// A child's insert or update waits while the parent's insert is in the queue in any state: not reached yet,
/// failed, waiting out a backoff, dead, or claimed by this very push and not committed. A child's delete never
/// waits: removing a child cannot break a foreign key, and its parent may be on its way out too.
final class ParentHolds: Sendable {
    /// The declared parents of each child table, by lower-cased table name, parent tables spelled as the
    /// store spells them.
    private let parents: [String: [ParentReference]]
    /// The child tables as the store spells them.
    let childTables: Set<String>
    /// The children a push passed over while their parent's insert was queued: per parent (row key, table
    /// lower-cased), the smallest sequence among them, where the push goes back once the parent is settled.
    private let passedOver = LockedState([String: Int]())

    private init(parents: [String: [ParentReference]], childTables: Set<String>) {
        self.parents = parents
        self.childTables = childTables
    }

    /// Whether no table declares a parent.
    var isEmpty: Bool { parents.isEmpty }

    /// The holds the rules stored in the transaction's store declare; `tables` are the store's tables, so
    /// a parent declared as `tasklist` finds the operations of `TaskList`.
    static func load(tables: [String], in transaction: any StoreTransaction) throws -> ParentHolds {
        make(try TableRulesRecord.all(in: transaction), tables: tables)
    }

    /// The holds `records` declare (a push read them already); the names of `store`'s tables are read only
    /// when some table declares a parent.
    static func make(_ records: [TableRulesRecord], tablesOf store: any LocalStore) async throws -> ParentHolds {
        guard records.contains(where: { !$0.rules.parents.isEmpty }) else { return make(records, tables: []) }
        return make(records, tables: try await store.tableDefinitions().map(\.name))
    }

    private static func make(_ records: [TableRulesRecord], tables: [String]) -> ParentHolds {
        let records = records.filter { !$0.rules.parents.isEmpty }
        guard !records.isEmpty else { return ParentHolds(parents: [:], childTables: []) }
        let spelled = Dictionary(tables.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var parents: [String: [ParentReference]] = [:]
        for record in records {
            parents[record.table.lowercased()] = record.rules.parents.map {
                ParentReference(property: $0.property, table: spelled[$0.table.lowercased()] ?? $0.table)
            }
        }
        return ParentHolds(parents: parents, childTables: Set(records.map(\.table)))
    }

    /// The first parent insert `operation` waits for, or `nil`: one lookup of the child's row and one per
    /// declared parent, all by primary key.
    func hold(of operation: PendingOperation, in transaction: any StoreTransaction) throws -> ParentHold? {
        try holds(of: operation, in: transaction, first: true).first
    }

    /// Every parent insert `operation` waits for (a child may reference several parents), or the first only.
    private func holds(of operation: PendingOperation, in transaction: any StoreTransaction, first: Bool = false)
        throws -> [ParentHold]
    {
        guard operation.kind != .delete, let references = parents[operation.table.lowercased()],
            let row = try transaction.lookup(table: operation.table, id: operation.itemId)
        else { return [] }
        var holds: [ParentHold] = []
        for reference in references {
            guard case .string(let parentId)? = row[reference.property],
                let parent = try OperationQueue.operation(table: reference.table, itemId: parentId, in: transaction),
                parent.kind == .insert, parent.id != operation.id
            else { continue }
            holds.append(
                ParentHold(
                    property: reference.property, table: parent.table, itemId: parent.itemId, operationId: parent.id,
                    parentState: parent.state))
            if first { break }
        }
        return holds
    }

    /// Every queued operation that waits for a parent, in queue order, with the first parent it waits for.
    func heldOperations(in transaction: any StoreTransaction) throws -> [(PendingOperation, ParentHold)] {
        guard !isEmpty else { return [] }
        return try transaction.queuedOperations(OperationSelection(tables: childTables)).compactMap { operation in
            try hold(of: operation, in: transaction).map { (operation, $0) }
        }
    }

    /// The queued operations held for each of `parents`' inserts, by the parent's operation id, in queue order.
    func children(of parents: [PendingOperation], in transaction: any StoreTransaction) throws
        -> [String: [PendingOperation]]
    {
        let parentIds = Set(parents.filter { $0.kind == .insert }.map(\.id))
        guard !isEmpty, !parentIds.isEmpty else { return [:] }
        var children: [String: [PendingOperation]] = [:]
        for operation in try transaction.queuedOperations(OperationSelection(tables: childTables)) {
            for hold in try holds(of: operation, in: transaction) where parentIds.contains(hold.operationId) {
                children[hold.operationId, default: []].append(operation)
            }
        }
        return children
    }

    /// The queued operations that would wait forever once `parents` are gone: their children, the children's
    /// children, and so on, in queue order, without `parents` themselves.
    func descendants(of parents: [PendingOperation], in transaction: any StoreTransaction) throws
        -> [PendingOperation]
    {
        var found: [String: PendingOperation] = [:]
        var excluded = Set(parents.map(\.id))
        var generation = parents
        while !generation.isEmpty {
            let next = try children(of: generation, in: transaction).values.joined().filter {
                !excluded.contains($0.id)
            }
            for operation in next {
                excluded.insert(operation.id)
                found[operation.id] = operation
            }
            generation = next
        }
        return found.values.sorted { $0.sequence < $1.sequence }
    }

    /// Whether a push passes `operation` over for its parent. The first time it waits for that parent the
    /// history says so (once, not once per push or pass: the parent is kept in the operation's
    /// ``RetryRecord``), and the push remembers to come back to it once the parent is settled.
    func passesOver(
        _ operation: PendingOperation, history: OperationHistory, in transaction: any StoreTransaction
    ) throws -> Bool {
        guard let hold = try hold(of: operation, in: transaction) else { return false }
        let key = Self.key(table: hold.table, itemId: hold.itemId)
        passedOver.withLock { $0[key] = min($0[key] ?? operation.sequence, operation.sequence) }
        var record = try RetryRecord.current(for: operation, in: transaction)
        if record.heldFor != key {
            record.heldFor = key
            try record.save(in: transaction)
            try history.record(operation, .held, message: hold.description, in: transaction)
        }
        return true
    }

    /// The sequence just before the earliest child the push passed over waiting for `operation`, now that
    /// `operation` is settled (sent, failed or resolved), or `nil`: the push goes back there, and each child
    /// is looked at again.
    func resumption(after operation: PendingOperation) -> Int? {
        guard !isEmpty else { return nil }
        let key = Self.key(table: operation.table, itemId: operation.itemId)
        return passedOver.withLock { $0.removeValue(forKey: key) }.map { $0 - 1 }
    }

    private static func key(table: String, itemId: String) -> String {
        PendingOperation.rowKey(table: table.lowercased(), itemId: itemId)
    }
}
