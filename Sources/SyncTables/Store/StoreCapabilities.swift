/// What a store can do beyond the members of ``LocalStore``, and the one place the library looks for it.
///
/// Not part of what a store author implements (it is `package`): the library's own stores declare their
/// capabilities by conforming to ``CapableStore``; every other store has ``none``, with which everything
/// works, only without the checks and fast paths a capability allows. The library asks a store through
/// ``LocalStore/capabilities``, never by its type.
///
/// ```swift
/// if context.store.capabilities.hasDedicatedThread { … }  // stream a large batch into one transaction
/// ```
///
/// A transaction's own fast paths are found the same way, on the transaction: see
/// ``StoreTransaction/fastPaths``.
package struct StoreCapabilities: Sendable {
    /// Reads every top-level property any row of a table has ever had; empty for a table the store does
    /// not have.
    package typealias PropertyNameReader = @Sendable (_ table: String) async throws -> Set<String>

    /// Present when the store runs every transaction body on a thread of its own, never on the shared pool.
    ///
    /// Such a body may block while it waits for work another task is still preparing: the context streams
    /// a large `insert(contentsOf:)` into one transaction this way (see ``ChunkChannel``). A store on the
    /// shared pool must not be asked to: with every pool thread blocked, the task that prepares the work
    /// could never run.
    package var dedicatedThread: DedicatedThread?

    /// What a store with a thread of its own offers a streamed insert.
    package struct DedicatedThread: Sendable {
        /// The JSON text the store keeps for a new row, as
        /// ``StoreTransactionFastPaths/insertNew(table:items:canonicalJSON:queueing:)`` takes it.
        ///
        /// The task that encodes a streamed insert calls it on the shared pool, ahead of the store, so the
        /// store's thread only writes the text; it must not touch the store's state.
        package let canonicalJSON: @Sendable (JSONObject) -> [UInt8]

        package init(canonicalJSON: @escaping @Sendable (JSONObject) -> [UInt8]) {
            self.canonicalJSON = canonicalJSON
        }
    }

    /// Whether the store runs every transaction body on a thread of its own (see ``dedicatedThread``).
    package var hasDedicatedThread: Bool { dedicatedThread != nil }

    /// Every top-level property the rows of a table have ever had, or `nil` when the store does not keep
    /// track.
    ///
    /// A query that filters on any other property (and that the item type does not declare) is refused
    /// with ``SyncError/unknownColumn(_:table:nearest:)``: it is most likely a typo, which would otherwise
    /// match nothing, or, negated, everything. Without this capability that check is skipped.
    package var propertyNames: PropertyNameReader?

    /// The store's file, when it keeps one: attachment files go to a folder beside it (`<file>.blobs`).
    package var fileLocation: String?

    /// Whether the store encrypts what it keeps: attachment files are then encrypted too, with keys kept in
    /// the store.
    package var encrypts: Bool

    /// Capabilities as given; none unless named.
    package init(
        dedicatedThread: DedicatedThread? = nil, propertyNames: PropertyNameReader? = nil,
        fileLocation: String? = nil, encrypts: Bool = false
    ) {
        self.dedicatedThread = dedicatedThread
        self.propertyNames = propertyNames
        self.fileLocation = fileLocation
        self.encrypts = encrypts
    }

    /// Nothing beyond ``LocalStore``: what a store the library does not know has.
    package static let none = StoreCapabilities()
}

/// A store that declares what it can do beyond ``LocalStore``: `SQLiteStore`, `EncryptedSQLiteStore` and
/// `MemoryStore`.
package protocol CapableStore: LocalStore {
    /// What this store can do beyond ``LocalStore``.
    var declaredCapabilities: StoreCapabilities { get }
}

extension LocalStore {
    /// What the store can do beyond ``LocalStore``: what it declares (``CapableStore``), else
    /// ``StoreCapabilities/none``.
    package var capabilities: StoreCapabilities {
        (self as? any CapableStore)?.declaredCapabilities ?? .none
    }
}
