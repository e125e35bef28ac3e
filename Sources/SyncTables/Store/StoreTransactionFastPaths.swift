/// What a store can do faster than the generic code built on ``StoreTransaction``'s public members:
/// inserting new rows without looking each one up, and keeping the operation queue in storage of its own.
///
/// Not part of what a store author implements: `SQLiteStore`'s transactions conform, and every other
/// transaction gets ``GenericStoreTransaction``, which does the same through the public members. Callers
/// use the members of the same names on `StoreTransaction` (below), which pick one or the other through
/// ``StoreTransaction/fastPaths``: the transaction's side of what ``StoreCapabilities`` is for a store
/// (code inside a transaction holds the transaction, not its store).
package protocol StoreTransactionFastPaths: StoreTransaction {
    /// Inserts rows for ids that are not stored yet, all or none: when any item's `id` is stored already,
    /// or two items share one, nothing changes and the result is `false`. Every item must carry a valid
    /// string `id`; otherwise ``StoreError/missingID(table:)`` is thrown.
    func insertNew(table: String, items: [JSONObject]) throws -> Bool
    /// ``insertNew(table:items:)`` with each item's canonical JSON text serialized already:
    /// `canonicalJSON[i]` is `items[i].jsonBytes`, or, for `SQLiteStore`, the form it stores (the same
    /// text without the long strings it keeps in their columns only). Ignored unless it has one text per
    /// item.
    func insertNew(table: String, items: [JSONObject], canonicalJSON: [[UInt8]]) throws -> Bool
    /// ``insertNew(table:items:canonicalJSON:)`` and ``queueNewOperations(_:)`` in one step, all or none:
    /// `operations[i]` is queued for `items[i]`, which it names. An empty `canonicalJSON` means none was
    /// serialized. `SQLiteStore` writes each row with its operation's sequence on it, which is how it
    /// finds an item's operation without an index on the queue.
    func insertNew(
        table: String, items: [JSONObject], canonicalJSON: [[UInt8]], queueing operations: [PendingOperation]
    ) throws -> Bool

    /// Creates the queue's storage; the context calls it once, when it first opens the store.
    func prepareOperationQueue() throws
    /// The operation queued for an item (at most one exists), or `nil`.
    func queuedOperation(table: String, itemId: String) throws -> PendingOperation?
    /// The queued operations `selection` selects, in ascending sequence.
    func queuedOperations(_ selection: OperationSelection) throws -> [PendingOperation]
    /// How many queued operations `selection` selects (its limit applies).
    func countQueuedOperations(_ selection: OperationSelection) throws -> Int
    /// The highest sequence among queued operations, or `nil` when the queue is empty.
    func highestQueuedSequence() throws -> Int?
    /// Stores operations: each replaces the operation queued for its item, if any.
    func saveQueuedOperations(_ operations: [PendingOperation]) throws
    /// Removes the operations queued for these operations' items.
    func removeQueuedOperations(_ operations: [PendingOperation]) throws
    /// Queues operations for items that have none queued, all or none: when any of their items has an
    /// operation queued already, or two operations name the same item, nothing changes and the result is
    /// `false`.
    func queueNewOperations(_ operations: [PendingOperation]) throws -> Bool

    /// The definitions of every table as this transaction sees them, or `nil` when the store cannot list
    /// them inside a transaction (then a wipe empties the tables the store listed just before it).
    func definedTables() throws -> [TableDefinition]?
}

extension StoreTransactionFastPaths {
    /// A transaction cannot list its store's tables unless it says so.
    package func definedTables() throws -> [TableDefinition]? { nil }
}

extension StoreTransaction {
    /// The transaction's own fast paths, or the generic ones built on its public members.
    package var fastPaths: any StoreTransactionFastPaths {
        (self as? any StoreTransactionFastPaths) ?? GenericStoreTransaction(base: self)
    }

    /// See ``StoreTransactionFastPaths/insertNew(table:items:)``.
    package func insertNew(table: String, items: [JSONObject]) throws -> Bool {
        try fastPaths.insertNew(table: table, items: items)
    }

    /// See ``StoreTransactionFastPaths/insertNew(table:items:canonicalJSON:)``.
    package func insertNew(table: String, items: [JSONObject], canonicalJSON: [[UInt8]]) throws -> Bool {
        try fastPaths.insertNew(table: table, items: items, canonicalJSON: canonicalJSON)
    }

    /// See ``StoreTransactionFastPaths/insertNew(table:items:canonicalJSON:queueing:)``.
    package func insertNew(
        table: String, items: [JSONObject], canonicalJSON: [[UInt8]], queueing operations: [PendingOperation]
    ) throws -> Bool {
        try fastPaths.insertNew(table: table, items: items, canonicalJSON: canonicalJSON, queueing: operations)
    }

    /// See ``StoreTransactionFastPaths/prepareOperationQueue()``.
    package func prepareOperationQueue() throws {
        try fastPaths.prepareOperationQueue()
    }

    /// See ``StoreTransactionFastPaths/queuedOperation(table:itemId:)``.
    package func queuedOperation(table: String, itemId: String) throws -> PendingOperation? {
        try fastPaths.queuedOperation(table: table, itemId: itemId)
    }

    /// See ``StoreTransactionFastPaths/queuedOperations(_:)``.
    package func queuedOperations(_ selection: OperationSelection) throws -> [PendingOperation] {
        try fastPaths.queuedOperations(selection)
    }

    /// See ``StoreTransactionFastPaths/countQueuedOperations(_:)``.
    package func countQueuedOperations(_ selection: OperationSelection) throws -> Int {
        try fastPaths.countQueuedOperations(selection)
    }

    /// See ``StoreTransactionFastPaths/highestQueuedSequence()``.
    package func highestQueuedSequence() throws -> Int? {
        try fastPaths.highestQueuedSequence()
    }

    /// See ``StoreTransactionFastPaths/saveQueuedOperations(_:)``.
    package func saveQueuedOperations(_ operations: [PendingOperation]) throws {
        try fastPaths.saveQueuedOperations(operations)
    }

    /// See ``StoreTransactionFastPaths/removeQueuedOperations(_:)``.
    package func removeQueuedOperations(_ operations: [PendingOperation]) throws {
        try fastPaths.removeQueuedOperations(operations)
    }

    /// See ``StoreTransactionFastPaths/queueNewOperations(_:)``.
    package func queueNewOperations(_ operations: [PendingOperation]) throws -> Bool {
        try fastPaths.queueNewOperations(operations)
    }
}
