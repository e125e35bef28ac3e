/// The tables a ``SyncContext`` keeps in its store next to the user's tables, all prefixed `__`.
///
/// - `__operations`: the durable operation queue, one row per item with a pending change
///   (see ``PendingOperation``), keyed by `<table>|<itemId>` and indexed by `(tableName, itemId)` and
///   `sequence`. Lookups by operation id (discard, tools) scan instead: they are rare, and one index
///   less keeps every local write cheaper.
/// - `__errors`: push errors, one row per failed attempt, scoped by operation and table.
/// - `__config`: key/value settings: the schema version, delta tokens
///   (`deltaToken|<table>|<queryId>`), last pull times (`lastPull|<table>|<queryId>`) and the
///   highest operation sequence handed out.
enum SystemTables {
    /// The operation queue.
    static let operations = "__operations"
    /// Push errors.
    static let errors = "__errors"
    /// Key/value configuration.
    static let config = "__config"
    /// The engine's delivery state of failed operations (``RetryRecord``), one row per operation id.
    static let retries = "__retries"

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
