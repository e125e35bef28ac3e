import Foundation

/// The heart of offline sync: one local store, the typed tables in it, and one ordered, durable queue of
/// the local changes waiting to be pushed.
///
/// Opening a context creates or migrates its system tables (`__operations`, `__errors`, `__config`).
/// Every local write through a ``SyncTable`` commits its row change and its queued operation in one store
/// transaction, so after a crash either both exist or neither does.
///
/// ```swift
/// let context = try await SyncContext(store: try SQLiteStore(path: "todo.sqlite"))
/// let todos = try await context.table(TodoItem.self)
/// let saved = try await todos.insert(TodoItem(id: "", text: "Buy milk", complete: false))
/// let pending = try await context.pendingOperationCount()   // 1
/// ```
///
/// The context is an actor: writes to the same item are applied one after the other, and a batch is
/// committed whole, so reads never see half of it. Reads go straight to the store and do not wait for
/// the actor.
///
/// When the store is itself an actor (``SQLiteStore``, ``MemoryStore``), the context runs on the store's
/// executor: the context's calls into the store then need no thread switch, and a caller running under
/// `withTaskExecutorPreference(store.preferredTaskExecutor)` makes a whole local write without one.
public actor SyncContext {
    /// The store holding the tables, the queue and the sync state.
    public nonisolated let store: any LocalStore
    /// Where the context's own code runs: the store's executor, or that of `isolation` for a store that is
    /// not an actor. (The reference is unowned: `store` or `isolation` keeps its owner alive.)
    private nonisolated let executor: UnownedSerialExecutor
    private nonisolated let isolation: ContextIsolation?

    /// The context shares its store's executor when the store is an actor (see the type's discussion).
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor
    }
    /// The operation queue, shared with push, pull and purge.
    nonisolated let queue: OperationQueue
    /// The time source of queued operations' creation times, the operation history, and an engine made
    /// without a clock of its own (``Configuration/clock``).
    public nonisolated var clock: any SyncClock { configuration.clock }
    /// What makes this context the store's only pusher while it pushes (see ``PushLease``).
    nonisolated let pushLease: PushLease
    /// The subscribers of ``events``.
    nonisolated let eventBroadcaster = Broadcaster<SyncEvent>(bufferLimit: 1_000)
    /// The live queries waiting for table changes, each keeping one pending wake-up: a burst of writes wakes
    /// a query once, and it reads the latest state.
    nonisolated let changeNotifier = Broadcaster<Void>(bufferLimit: 1)
    /// Applies resolutions to push errors, for the app and for a push's conflict policy.
    nonisolated var resolver: ErrorResolver {
        ErrorResolver(store: store, queue: queue, notifier: changeNotifier, context: self)
    }
    /// The definitions given to the store so far, so a table is defined once, not per write.
    private var definitions: [String: TableDefinition]
    /// The rules this context stored for each table (by lower-cased name), so they are written once.
    var storedRules: [String: SyncRules] = [:]

    /// The server connection push and pull use; `nil` for a local-only context.
    public nonisolated let client: SyncClient?
    /// How the context pushes, bounds its queue and keeps its records.
    public nonisolated let configuration: Configuration

    // Sync actions run one at a time.
    var syncActionRunning = false
    var syncActionWaiters: [CheckedContinuation<Void, Never>] = []
    /// The items being pushed, which local writes to them wait for.
    nonisolated let inFlightItems = InFlightItems()
    /// The folder of the attachments' files.
    nonisolated let blobs: BlobFolder

    /// Opens a context on `store`, creating or migrating the system tables.
    ///
    /// - Throws: ``SyncError/unsupportedSchemaVersion(found:supported:)`` for a store written by a newer SyncTables,
    ///   ``SyncError/corruptSystemTable(table:message:)`` when its system tables are damaged, and
    ///   ``SyncError/store(_:)`` when the store fails.
    public init(
        store: some LocalStore,
        client: SyncClient? = nil,
        configuration: Configuration = Configuration()
    ) async throws {
        try await SystemSchema.open(store)
        let existing = try await SyncError.mapping { try await store.tableDefinitions() }
        self.store = store
        if let actor = store as? any Actor {
            self.isolation = nil
            self.executor = actor.unownedExecutor
        } else {
            let isolation = ContextIsolation()
            self.isolation = isolation
            self.executor = isolation.unownedExecutor
        }
        self.client = client
        self.configuration = configuration
        self.queue = OperationQueue(
            store: store,
            history: OperationHistory(clock: configuration.clock, retention: configuration.historyRetention))
        self.pushLease = PushLease(duration: configuration.pushLeaseDuration)
        self.blobs = BlobFolder(directory: configuration.attachmentDirectory, for: store)
        self.definitions = Dictionary(
            existing.map { ($0.name.lowercased(), $0) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// A stream of everything that happens in the context from now on; each access is a new subscriber.
    ///
    /// ```swift
    /// Task { for await event in context.events { log(event) } }
    /// ```
    public nonisolated var events: AsyncStream<SyncEvent> {
        eventBroadcaster.subscribe()
    }

    /// Closes the store; the context cannot be used afterwards and event streams and live queries end.
    ///
    /// - Throws: ``SyncError/store(_:)`` when the store fails.
    public func close() async throws {
        eventBroadcaster.finish()
        changeNotifier.finish()
        try await SyncError.mapping { try await store.close() }
    }

    // MARK: Tables

    /// A handle on the table holding items of `type`, named after the type unless `name` is given.
    ///
    /// The table is created on first use. `Date` properties of the type are found automatically and
    /// stored as date properties (compared as instants); list more in `dateProperties` if the type has a
    /// hand-written `Decodable` conformance. Opening the same table as `JSONObject` gives an untyped handle.
    ///
    /// ```swift
    /// let todos = try await context.table(TodoItem.self)
    /// let raw = try await context.table(JSONObject.self, named: "TodoItem")
    /// ```
    ///
    /// - Throws: ``SyncError/invalidTableName(_:reason:)`` for names that are not identifiers or that start with `__`
    ///   (reserved for system tables), and for types whose name is none (a generic type such as `Box<Int>` needs
    ///   `named:`); ``SyncError/store(_:)`` when the store fails.
    public func table<Item: SyncItem>(
        _ type: Item.Type,
        named name: String? = nil,
        dateProperties: Set<String> = []
    ) async throws -> SyncTable<Item> {
        let requested = name ?? String(describing: type)
        if name == nil {
            try SyncTableName.validate(typeName: requested)
        } else {
            try SyncTableName.validate(requested)
        }
        var wanted = dateProperties
        var itemProperties: Set<String>? = []
        if type != JSONObject.self {
            wanted.formUnion(DatePropertyProbe.dateProperties(of: type))
            itemProperties = DatePropertyProbe.propertyNames(of: type)
        }
        let definition = try await define(requested, dateProperties: wanted)
        if let provider = type as? any SyncRulesProvider.Type {
            try await storeRules(provider.syncRules, for: definition.name)
        }
        return SyncTable(context: self, name: definition.name, itemProperties: itemProperties)
    }

    /// Makes sure the store knows `table` with at least these date properties, defining it only when
    /// something is new, and returns its definition.
    ///
    /// Stores compare table names case-insensitively, so the context does too: the first spelling seen
    /// (or the store's) is the table's name everywhere, including the operation queue.
    @discardableResult
    func define(_ table: String, dateProperties: Set<String>) async throws -> TableDefinition {
        let key = table.lowercased()
        if let known = definitions[key], dateProperties.isSubset(of: known.dateProperties) { return known }
        var definition = definitions[key] ?? TableDefinition(name: table)
        definition.dateProperties.formUnion(dateProperties)
        try await SyncError.mapping { try await store.defineTable(definition) }
        definitions[key] = definition
        return definition
    }

    /// The definition of a table this context has opened or found in the store.
    func definition(of table: String) -> TableDefinition? {
        definitions[table.lowercased()]
    }

    // MARK: Local writes

    /// Applies prepared local changes to one table in one transaction, then reports them.
    ///
    /// `dateProperties` are the properties the items encoded from `Date`s; new ones extend the table first.
    func write(
        _ changes: [LocalChange],
        to table: String,
        dateProperties: Set<String> = []
    ) async throws -> [JSONObject?] {
        if !dateProperties.isEmpty {
            try await define(table, dateProperties: dateProperties)
        }
        let writer = LocalWriteTransaction(
            table: table, queue: queue, now: Timestamp(millisecondPrecision: clock.now()))
        let attachments = try await attachmentCheck(of: changes, to: table)
        let itemIds = changes.map(\.itemId)
        let inFlightItems = self.inFlightItems
        let limit = configuration.maxQueueSize
        var applied: LocalWriteTransaction.Applied
        while true {
            await inFlightItems.waitUntilLanded(table: table, itemIds: itemIds)
            do {
                applied = try await store.write { transaction in
                    // Checked again inside the transaction: a push may have claimed an item meanwhile.
                    if inFlightItems.containsAny(table: table, itemIds: itemIds) { throw ItemsInFlight() }
                    let queued = limit == nil ? 0 : try transaction.countQueuedOperations(.all)
                    try attachments?.confirm(at: writer.now, in: transaction)
                    let applied = try writer.apply(changes, in: transaction)
                    if let limit { try Self.checkQueueLimit(limit, before: queued, in: transaction) }
                    return applied
                }
                break
            } catch is ItemsInFlight {
                continue
            } catch {
                throw SyncError(converting: error)
            }
        }
        publish(applied.changes, table: table)
        changeNotifier.notify(table)
        return applied.rows
    }

    /// Wakes the live queries of `table`; pull, push results and purge call it after they commit.
    nonisolated func notifyTableChanged(_ table: String) {
        changeNotifier.notify(table)
    }

    private func publish(_ changes: [LocalChange], table: String) {
        guard let first = changes.first else { return }
        switch first {
        case .insert where changes.count > 1:
            eventBroadcaster.publish(.itemsInserted(table: table, ids: changes.map(\.itemId)))
        default:
            for change in changes {
                switch change {
                case .insert: eventBroadcaster.publish(.itemsInserted(table: table, ids: [change.itemId]))
                case .update, .save: eventBroadcaster.publish(.itemUpdated(table: table, id: change.itemId))
                case .delete: eventBroadcaster.publish(.itemDeleted(table: table, id: change.itemId))
                }
            }
        }
    }
}
