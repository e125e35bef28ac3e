@_spi(SyncTablesTools) import SyncTablesCore

/// Why a ``SyncContext`` or ``SyncTable`` refused or failed a request.
///
/// Every case carries what is needed to act on it (table, item id, the conflicting operation, the
/// underlying store error), and ``description`` says in plain words what happened and what to do.
///
/// It is the one error type that ``SyncContext``, ``SyncTable`` and ``SyncQuery`` throw, sync calls included: a
/// failed push (also the implicit push before a pull) is ``pushFailed(_:)`` with the operations' errors. The
/// layers below them throw their own errors, which the context wraps: a ``LocalStore`` ``StoreError``
/// (``store(_:)``), and ``SyncClient``, ``RemoteTable`` and the transports ``TransportError``
/// (``network(_:)``), ``HTTPStatusError`` (``server(_:)``) and ``RemoteError`` (``remote(_:)``).
///
/// ```swift
/// do {
///     try await todos.insert(item)
/// } catch SyncError.duplicateInsert(let table, let id) {
///     try await todos.update(item)   // it exists already: change it instead
/// }
/// ```
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The item id is not valid: empty where one is required, only whitespace, longer
    /// than 255 characters, containing control characters or one of `" + ? \ / ``, or `.` / `..`.
    case invalidItemID(String, reason: String)
    /// The item type does not encode to a JSON object (e.g. it encodes a single value or an array).
    case itemNotObject(type: String)
    /// An insert used an id that already exists in the local table (also when the row came from a pull).
    case duplicateInsert(table: String, id: String)
    /// An update named an item that is not stored in the local table; nothing changed.
    /// ``SyncTable/save(_:)`` inserts such an item instead.
    case notFound(table: String, id: String)
    /// The write cannot be combined with the operation already queued for the item,
    /// e.g. an update of an item whose delete is pending.
    case pendingOperationConflict(table: String, id: String, existing: OperationKind, attempted: OperationKind)
    /// The table has pending operations, so the request (purge, pull) would lose or overwrite local changes.
    case pendingOperations(table: String)
    /// The table name is not usable: not an identifier, or reserved for system tables (`__` prefix).
    case invalidTableName(String, reason: String)
    /// The query cannot run, e.g. a negative limit or offset.
    case invalidQuery(String)
    /// A query filter names a property that no item of the table has ever had and that its item type does
    /// not declare (most likely a typo); `nearest` is the known name closest to it, if any.
    case unknownColumn(String, table: String, nearest: String?)
    /// The item could not be encoded to JSON.
    case encoding(type: String, message: String)
    /// A stored row could not be decoded as the requested type.
    case decoding(type: String, table: String, id: String?, message: String)
    /// No queued operation has this id (it was pushed, discarded or collapsed meanwhile).
    case operationNotFound(id: String)
    /// The queued operation changed since it was read (its version moved on), so the request was not applied.
    case operationChanged(id: String, expected: Int, actual: Int)
    /// A row of a system table (`__operations`, `__errors`, `__config`) is damaged.
    case corruptSystemTable(table: String, message: String)
    /// The store was written by a newer version of SyncTables whose system tables this version cannot read.
    case unsupportedSchemaVersion(found: Int, supported: Int)
    /// The local store failed.
    case store(StoreError)
    /// The calling task was cancelled; nothing was lost.
    case cancelled
    /// Push or pull needs a server, but the context was created without a ``SyncClient``.
    case noClient
    /// The server could not be reached, or the connection broke.
    case network(TransportError)
    /// The server answered with an HTTP error.
    case server(HTTPStatusError)
    /// The server's answer could not be used, or the request could not be built.
    case remote(RemoteError)
    /// A failure from a component outside SyncTables (e.g. a third-party store) that is not a `StoreError`.
    case underlying(String)
    /// Another pusher (this process or another one using the same store file) holds the store's push lease;
    /// nothing was sent. `owner` names it. A lease whose owner stopped expires, and is then taken over.
    case pushInProgress(owner: String)
    /// A push ended before every operation was confirmed: it was aborted (``PushFailure/status`` says why) or
    /// some operations failed (``PushFailure/errors``). Nothing is lost: failed and unsent operations stay
    /// queued. Also thrown by a pull whose implicit push failed, before any pull request.
    case pushFailed(PushFailure)
    /// A push, pull or purge of this context is running, so the request that must not run beside one (a
    /// ``SyncContext/wipe(waitingForSync:)`` not told to wait) was refused; nothing changed.
    case syncActionInProgress
    /// A ``PushOptions`` value cannot work (say, zero concurrent requests); nothing was sent.
    case invalidPushOptions(String)
    /// The write would add operations to a queue that holds ``SyncContext/Configuration-swift.struct/maxQueueSize`` already; nothing was
    /// written. (A write that collapses into an operation already queued is allowed.)
    case queueFull(limit: Int)
    /// Discarding the dead insert `parent` would leave `children` (operations held for it, and theirs in turn)
    /// waiting for a parent that never reaches the server; nothing was discarded. Discard them with it
    /// (``SyncContext/discardDeadOperations(ids:includingChildren:)`` with `includingChildren: true`), or
    /// retry the parent.
    case orphanedChildren(parent: PendingOperation, children: [PendingOperation])
    /// An attachment could not be imported, read, kept or sent; nothing else changed.
    case attachment(AttachmentError)

    /// A message for logs and users, naming what failed and how to fix it.
    public var description: String { sentences.withoutDoubledPeriods }

    private var sentences: String {
        switch self {
        case .invalidItemID(let id, let reason):
            return "Invalid item id \(quoted(id)): \(reason). Use a non-empty string of at most 255 characters "
                + "without control characters or \" + ? \\ / `, or leave the id empty on insert to generate one."
        case .itemNotObject(let type):
            return "\(type) does not encode to a JSON object. Sync items must encode as keyed containers "
                + "(a struct or class with properties), not a single value or an array."
        case .duplicateInsert(let table, let id):
            return "An item with id \(quoted(id)) already exists in table '\(table)'. Use update(_:) to change it."
        case .notFound(let table, let id):
            return "No item with id \(quoted(id)) is stored in table '\(table)', so it cannot be updated. Use "
                + "insert(_:) to add it, or save(_:) to insert or update."
        case .pendingOperationConflict(let table, let id, let existing, let attempted):
            return "Cannot \(attempted) item \(quoted(id)) in table '\(table)': a pending \(existing) operation "
                + "for it is queued and the two cannot be combined. "
                + (existing == .delete
                    ? "The item was deleted locally; push first, or discard the pending delete."
                    : "Use update(_:) for an item that was already inserted.")
        case .pendingOperations(let table):
            return "Table '\(table)' has pending operations. Push them first, or force the request to discard them."
        case .invalidTableName(let name, let reason):
            return "Invalid table name \(quoted(name)): \(reason)."
        case .invalidQuery(let message):
            return "Invalid query: \(message)."
        case .unknownColumn(let name, let table, let nearest):
            let suggestion = nearest.map { " Did you mean \(quoted($0))?" } ?? ""
            return "Table '\(table)' has no column \(quoted(name)): no item ever had it and the item type does "
                + "not declare it.\(suggestion) Column(Item.CodingKeys.…) lets the compiler check names."
        case .encoding(let type, let message):
            return "Could not encode \(type): \(message)."
        case .decoding(let type, let table, let id, let message):
            let row = id.map { "row \(quoted($0))" } ?? "a row"
            return "Could not decode \(row) of table '\(table)' as \(type): \(message). Make properties that "
                + "older rows lack optional."
        case .operationNotFound(let id):
            return "No pending operation has id '\(id)'; it was pushed, discarded or merged into another one."
        case .operationChanged(let id, let expected, let actual):
            return "Pending operation '\(id)' changed (version \(expected) → \(actual)) since it was read; "
                + "read it again and retry."
        case .corruptSystemTable(let table, let message):
            return "System table '\(table)' is damaged: \(message)."
        case .unsupportedSchemaVersion(let found, let supported):
            return "The store's system tables have layout version \(found), but this SyncTables reads up to "
                + "version \(supported). Open it with a newer SyncTables."
        case .store(let error):
            return "The local store failed: \(error)."
        case .cancelled:
            return "The task was cancelled; no local data was lost."
        case .noClient:
            return "This context has no SyncClient: create it with SyncContext(store:client:) to push and pull."
        case .network(let error):
            return "The server could not be reached: \(error.message). Nothing was lost; try again later."
        case .server(let error):
            return "The server refused the request: \(error)."
        case .remote(let error):
            return "The server's answer could not be used: \(error)."
        case .underlying(let message):
            return "The operation failed: \(message)."
        case .pushInProgress(let owner):
            return "Another pusher (\(owner)) is pushing this store; nothing was sent. Try again when it is done "
                + "(if it stopped, its lease expires after a while)."
        case .pushFailed(let failure):
            return failure.description
        case .syncActionInProgress:
            return "A push, pull or purge of this context is running; nothing was changed. Try again when it is "
                + "done, or wait for it (wipe(waitingForSync: true))."
        case .invalidPushOptions(let message):
            return "The push options are invalid: \(message). Nothing was sent."
        case .queueFull(let limit):
            return "The queue holds \(limit) operations, its limit; the write was not applied. Push, or retry or "
                + "discard dead operations, to make room."
        case .orphanedChildren(let parent, let children):
            let named = children.prefix(5).map { "\($0.table) \(quoted($0.itemId))" }.joined(separator: ", ")
            let more = children.count > 5 ? " and \(children.count - 5) more" : ""
            return "Discarding the insert of \(parent.table) \(quoted(parent.itemId)) would leave "
                + "\(children.count) queued operation(s) waiting for a parent that never reaches the server "
                + "(\(named)\(more)); nothing was discarded. Discard them with it (includingChildren: true, "
                + "synctables dead discard --with-children), or retry the parent."
        case .attachment(let error):
            return error.description
        }
    }

    private func quoted(_ text: String) -> String {
        // Ids and names are user input: show control characters escaped instead of raw.
        "\""
            + text.unicodeScalars.map {
                $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0)
            }
            .joined() + "\""
    }
}

extension SyncError {
    /// Runs `body`, converting whatever it throws to a `SyncError`.
    static func mapping<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws(SyncError) -> Result {
        do {
            return try await body()
        } catch {
            throw SyncError(converting: error)
        }
    }

    /// Converts any error to a `SyncError`, keeping store errors typed.
    init(converting error: any Error) {
        switch error {
        case let error as SyncError: self = error
        case let error as StoreError: self = .store(error)
        case is CancellationError: self = .cancelled
        case let error as TransportError: self = error.kind == .cancelled ? .cancelled : .network(error)
        case let error as HTTPStatusError: self = .server(error)
        case let error as RemoteError: self = .remote(error)
        case let error as AttachmentError: self = .attachment(error)
        default: self = .underlying(String(describing: error))
        }
    }
}
