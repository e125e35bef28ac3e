/// The tables a ``SyncContext`` keeps in its store next to the user's tables, all prefixed `__`.
///
/// - `__operations`: the durable operation queue of a store that keeps it as JSON rows (the
///   ``LocalStore`` defaults, ``MemoryStore``), one row per item with a pending change (see
///   ``PendingOperation``). ``SQLiteStore`` keeps its queue in a relational table of its own,
///   `__synctables_operations`, instead.
/// - `__errors`: push errors, one row per failed attempt, scoped by operation and table.
/// - `__config`: key/value settings: the schema version, delta tokens
///   (`deltaToken|<table>|<queryId>`), last pull times (`lastPull|<table>|<queryId>`), the
///   highest operation sequence handed out and the last history entry's number.
/// - `__retries`: the sync engine's delivery state of failed operations.
/// - `__history`: what became of operations (``OperationHistoryEntry``), within the context's retention.
/// - `__tables`: each table's ``SyncRules``, as its item type declared them.
/// - `__blobs`: what the store knows of each attachment's file (``BlobRecord``).
enum SystemTables {
    /// The operation queue.
    static let operations = "__operations"
    /// Push errors.
    static let errors = "__errors"
    /// Key/value configuration.
    static let config = "__config"
    /// The engine's delivery state of failed operations (``RetryRecord``), one row per operation id.
    static let retries = "__retries"
    /// The operation history (``OperationHistory``).
    static let history = "__history"
    /// Each table's rules (``TableRulesRecord``).
    static let tables = "__tables"
    /// Attachment files (``BlobRecord``).
    static let blobs = "__blobs"

    /// The prefix reserved for system tables; user tables may not use it.
    static let reservedPrefix = "__"

    static let operationsDefinition = TableDefinition(
        name: operations,
        indexes: [
            [PendingOperation.Field.tableName, PendingOperation.Field.itemId],
            [PendingOperation.Field.sequence],
        ]
    )

    static let errorsDefinition = TableDefinition(
        name: errors,
        indexes: [
            [OperationErrorRecord.Field.operationId],
            [OperationErrorRecord.Field.tableName],
        ]
    )

    static let configDefinition = TableDefinition(name: config)

    static let retriesDefinition = TableDefinition(name: retries)
}
