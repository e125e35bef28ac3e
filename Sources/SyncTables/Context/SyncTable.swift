/// A typed handle on one table of a ``SyncContext``: local CRUD and queries, all working offline.
///
/// Every write commits the row and its queued operation in one transaction. Local writes never store
/// `createdAt`, `updatedAt` or `deleted` from the item (the server owns them); `version` is kept.
///
/// ```swift
/// let todos = try await context.table(TodoItem.self)
/// var item = try await todos.insert(TodoItem(id: "", text: "Buy milk", complete: false))
/// item.complete = true
/// item = try await todos.update(item)
/// try await todos.delete(item)
/// ```
public struct SyncTable<Item: SyncItem>: Sendable {
    /// The context the table belongs to.
    public let context: SyncContext
    /// The table name.
    public let name: String
    /// The properties `Item` declares, which queries may name before any row has them; `nil` when unknown
    /// (see ``DatePropertyProbe``).
    let itemProperties: Set<String>?

    init(context: SyncContext, name: String, itemProperties: Set<String>?) {
        self.context = context
        self.name = name
        self.itemProperties = itemProperties
    }

    /// Checks that `filter` names no property this table cannot have.
    func checkColumns(of filter: FilterExpression?) async throws(SyncError) {
        try await FilterColumnCheck(table: name, itemProperties: itemProperties).check(filter, in: context.store)
    }

    /// Inserts an item and queues its insert; returns the item as stored.
    ///
    /// An empty id is replaced by a generated one. Inserting the id of an item whose delete is still queued
    /// undoes the delete: the two become one operation (see <doc:MergingPerField>).
    ///
    /// - Throws: ``SyncError/duplicateInsert(table:id:)`` when the id exists locally (even for a pulled row),
    ///   ``SyncError/invalidItemID(_:reason:)`` for an invalid id,
    ///   ``SyncError/pendingOperationConflict(table:id:existing:attempted:)`` when an insert or update of the id
    ///   is queued though its row is gone (removed behind the context's back),
    ///   ``SyncError/queueFull(limit:)`` when the queue is at ``SyncContext/Configuration-swift.struct/maxQueueSize``,
    ///   ``SyncError/encoding(type:message:)`` or ``SyncError/itemNotObject(type:)`` when the item does not encode as a
    ///   JSON object, and ``SyncError/store(_:)`` when the store fails.
    @discardableResult
    public func insert(_ item: Item) async throws -> Item {
        let prepared = try prepareInsert(item)
        _ = try await context.write([.insert(prepared.object)], to: name, dateProperties: prepared.dateProperties)
        return try prepared.returned(item, table: name)
    }

    /// Inserts several items in one transaction: all of them are stored and queued, or none is.
    ///
    /// This is much faster than inserting one by one. Returns the items as stored, in order. On a store
    /// with a thread of its own (``SQLiteStore``), a batch of more than 1,024 items is encoded on the
    /// shared pool, chunk by chunk, while the store writes the chunks before it; the outcome and the errors
    /// are the same as for a smaller batch.
    ///
    /// - Throws: What ``insert(_:)`` throws, for the first item that fails; then none is written.
    @discardableResult
    public func insert(contentsOf items: some Sequence<Item>) async throws -> [Item] {
        let originals = Array(items)
        guard !originals.isEmpty else { return [] }
        if originals.count > Self.streamingThreshold, let thread = context.store.capabilities.dedicatedThread {
            return try await insertStreamed(originals, encodingRowsWith: thread.canonicalJSON)
        }
        let prepared = try originals.map { try prepareInsert($0) }
        try await write(prepared)
        return try returned(originals, replacing: Self.changed(prepared))
    }

    /// The items as stored: `originals`, with the stored row of each index in `changed` decoded in place of
    /// the app's item (a generated id, stripped system properties). Usually nothing changed, and the
    /// caller's array comes back as it is.
    func returned(_ originals: [Item], replacing changed: [Int: PreparedInsert]) throws -> [Item] {
        var items = originals
        for (index, insert) in changed {
            items[index] = try insert.returned(originals[index], table: name)
        }
        return items
    }

    /// The prepared inserts whose row differs from the app's item, by index, starting at `offset`.
    static func changed(_ prepared: [PreparedInsert], offset: Int = 0) -> [Int: PreparedInsert] {
        var changed: [Int: PreparedInsert] = [:]
        for (index, insert) in prepared.enumerated() where insert.changed {
            changed[offset + index] = insert
        }
        return changed
    }

    /// Writes prepared inserts through the context's general path (collapse rules, precise errors).
    func write(_ prepared: [PreparedInsert]) async throws {
        let dateProperties = prepared.reduce(into: Set<String>()) { $0.formUnion($1.dateProperties) }
        _ = try await context.write(prepared.map { .insert($0.object) }, to: name, dateProperties: dateProperties)
    }

    /// Replaces the stored item with `item`, queues an update (or folds it into the queued operation) and
    /// returns the item as stored.
    ///
    /// The stored row's `createdAt` and `updatedAt` are kept, and its `version` too when `item` has none.
    ///
    /// - Throws: ``SyncError/notFound(table:id:)`` when no item with this id is stored (``save(_:)`` inserts it
    ///   instead), ``SyncError/pendingOperationConflict(table:id:existing:attempted:)`` when the item's delete is
    ///   queued, ``SyncError/invalidItemID(_:reason:)`` for an invalid id, ``SyncError/queueFull(limit:)`` when the
    ///   queue is at ``SyncContext/Configuration-swift.struct/maxQueueSize``, ``SyncError/encoding(type:message:)`` or
    ///   ``SyncError/itemNotObject(type:)`` when the item does not encode as a JSON object, and ``SyncError/store(_:)``
    ///   when the store fails. Nothing changes.
    @discardableResult
    public func update(_ item: Item) async throws -> Item {
        let id = try validatedID(item.id)
        return try await replace(item, id: id, as: LocalChange.update)
    }

    /// Updates the item when one with its id is stored, else inserts it (an empty id is generated);
    /// returns the item as stored.
    ///
    /// ```swift
    /// try await todos.save(TodoItem(id: "a", text: "Buy milk", complete: false))   // inserted
    /// try await todos.save(TodoItem(id: "a", text: "Buy milk", complete: true))    // updated
    /// ```
    ///
    /// - Throws: ``SyncError/pendingOperationConflict(table:id:existing:attempted:)`` when an insert or update of
    ///   the id is queued though its row is gone, ``SyncError/invalidItemID(_:reason:)`` for an invalid id,
    ///   ``SyncError/queueFull(limit:)`` when the queue is at
    ///   ``SyncContext/Configuration-swift.struct/maxQueueSize``, ``SyncError/encoding(type:message:)`` or
    ///   ``SyncError/itemNotObject(type:)`` when the item does not encode as a JSON object, and ``SyncError/store(_:)``
    ///   when the store fails.
    @discardableResult
    public func save(_ item: Item) async throws -> Item {
        if item.id.isEmpty { return try await insert(item) }
        let id = try validatedID(item.id)
        return try await replace(item, id: id, as: LocalChange.save)
    }

    /// Writes `item` as an update or a save and returns it as stored.
    private func replace(_ item: Item, id: String, as change: (JSONObject) -> LocalChange) async throws -> Item {
        var (object, dateProperties) = try ItemCoding.object(from: item)
        object["id"] = .string(id)
        let rows = try await context.write([change(object)], to: name, dateProperties: dateProperties)
        guard let row = rows.first ?? nil else { return item }
        // The stored row differs from the item only in the properties the store keeps from the stored row.
        let kept = ItemCoding.serverOwnedProperties + ["version"]
        if kept.allSatisfy({ row[$0] == object[$0] }) { return item }
        return try ItemCoding.item(Item.self, from: row, table: name)
    }

    /// Deletes the item and queues its delete (or cancels its unsent insert).
    ///
    /// - Throws: ``SyncError/pendingOperationConflict(table:id:existing:attempted:)`` when the item's delete is queued
    ///   already, ``SyncError/invalidItemID(_:reason:)`` for an invalid id, ``SyncError/queueFull(limit:)`` when the
    ///   queue is at ``SyncContext/Configuration-swift.struct/maxQueueSize``, ``SyncError/encoding(type:message:)`` or
    ///   ``SyncError/itemNotObject(type:)`` when the item does not encode as a JSON object, and ``SyncError/store(_:)``
    ///   when the store fails.
    public func delete(_ item: Item) async throws {
        let id = try validatedID(item.id)
        var (object, _) = try ItemCoding.object(from: item)
        object["id"] = .string(id)
        _ = try await context.write([.delete(id: id, item: object)], to: name)
    }

    /// Deletes the item with this id and queues its delete; an absent row still queues the delete.
    ///
    /// - Throws: ``SyncError/pendingOperationConflict(table:id:existing:attempted:)`` when the item's delete is queued
    ///   already, ``SyncError/invalidItemID(_:reason:)`` for an invalid id, ``SyncError/queueFull(limit:)`` when the
    ///   queue is at ``SyncContext/Configuration-swift.struct/maxQueueSize``, and ``SyncError/store(_:)`` when the
    ///   store fails.
    public func delete(id: String) async throws {
        let id = try validatedID(id)
        _ = try await context.write([.delete(id: id, item: nil)], to: name)
    }

    /// The item with this id, or `nil` when the table has none.
    ///
    /// - Throws: ``SyncError/invalidItemID(_:reason:)`` for an invalid id,
    ///   ``SyncError/decoding(type:table:id:message:)`` when the row does not decode as `Item`, and
    ///   ``SyncError/store(_:)`` when the store fails.
    public func lookup(id: String) async throws -> Item? {
        let id = try validatedID(id)
        let row = try await SyncError.mapping { try await context.store.lookup(table: name, id: id) }
        return try row.map { row throws(SyncError) in try ItemCoding.item(Item.self, from: row, table: name) }
    }

    /// A query over every item of the table; refine it with `filter`, `order` and `limit`.
    ///
    /// ```swift
    /// let open = try await todos.query().filter(Column("complete") == false).fetchAll()
    /// ```
    public func query() -> SyncQuery<Item> {
        SyncQuery(table: self)
    }

    // MARK: Preparing writes

    /// An insert ready for the context, and what is needed to return the stored item.
    struct PreparedInsert: Sendable {
        var object: JSONObject
        /// The item's id (`object["id"]`).
        var id: String
        var dateProperties: Set<String>
        /// Whether the stored row differs from the app's item (generated id, stripped system properties).
        var changed: Bool

        func returned(_ original: Item, table: String) throws -> Item {
            guard changed else { return original }
            return try ItemCoding.item(Item.self, from: ItemCoding.rowForInsert(object), table: table)
        }
    }

    func prepareInsert(_ item: Item) throws -> PreparedInsert {
        var (object, dateProperties) = try ItemCoding.object(from: item)
        var changed = ItemCoding.serverOwnedProperties.contains { object[$0] != nil }
        let id: String
        if item.id.isEmpty {
            id = ItemID.generate()
            changed = true
        } else {
            id = try validatedID(item.id)
        }
        object["id"] = .string(id)
        return PreparedInsert(object: object, id: id, dateProperties: dateProperties, changed: changed)
    }

    private func validatedID(_ id: String) throws -> String {
        guard !id.isEmpty else { throw SyncError.invalidItemID(id, reason: "the id is empty") }
        do {
            try ItemID.validate(id)
        } catch {
            throw SyncError.invalidItemID(id, reason: String(describing: error))
        }
        return id
    }
}
