import Foundation
@_spi(SyncTablesTools) import SyncTablesSQLite

/// A second raw baseline for batched inserts: the SQL the store itself runs for each item, with everything
/// else taken away. It writes the item's row in the store's layout (one projected column per property, each
/// value kept there only, the row's kinds list, an empty `_json` and the pointer to its queued operation,
/// under a text primary key) and its queue row in the relational queue layout (the operation id as 16 bytes,
/// the kind and state as numbers), with
/// prepared statements, pre-encoded values and the store's page cache, one row per statement, one
/// transaction per batch.
///
/// The store's rate divided by this one is what the library's Swift work costs; this rate divided by the
/// plain raw baseline's is what the layout itself costs.
final class RawStoreLayout {
    let database: Database
    private let insertRow: Statement
    private let insertOperation: Statement
    private var sequence: Int64 = 0

    init(path: String, synchronous: String, cacheSizeKiB: Int) throws {
        database = try Database(path: path)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = \(synchronous)")
        try database.execute("PRAGMA cache_size = -\(cacheSizeKiB)")
        try database.execute(
            """
            CREATE TABLE items (id TEXT PRIMARY KEY NOT NULL, _json TEXT NOT NULL, _kinds TEXT,
                _queued INTEGER, c1, c2, c3, c4, c5, c6);
            CREATE TABLE operations (
                sequence INTEGER PRIMARY KEY NOT NULL, operation_id NOT NULL, kind INTEGER NOT NULL,
                table_name TEXT NOT NULL, item_id TEXT NOT NULL, item TEXT, state INTEGER NOT NULL,
                version INTEGER NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL);
            """)
        insertRow = try database.prepare(
            "INSERT INTO items (id, _json, _kinds, c1, c2, c3, c4, c5, c6, _queued) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        insertOperation = try database.prepare(
            """
            INSERT INTO operations (sequence, operation_id, kind, table_name, item_id, item, state, version,
                created_at, attempts) VALUES (?, ?, 0, 'BenchTodo', ?, NULL, 0, 1, ?, 0)
            """)
    }

    /// One item as this baseline writes it: everything encoded beforehand.
    struct Item: Sendable {
        var id: String
        var kinds: String
        var columns: [SQLiteValue]
        var operationId: [UInt8]

        init(_ todo: BenchTodo) throws {
            id = todo.id
            // Every value in its column; the list names the highest column and the boolean's (column 2).
            kinds = "6:2b"
            columns = [
                .text(todo.text), .integer(todo.complete ? 1 : 0), .integer(Int64(todo.priority)),
                .text(todo.category), .text(todo.notes), .real(todo.estimate),
            ]
            operationId = withUnsafeBytes(of: UUID().uuid) { Array($0) }
        }
    }

    /// Every item, row and queue row, in one transaction.
    func insertInOneTransaction(_ items: ArraySlice<Item>) throws {
        try database.transaction {
            for item in items {
                insertRow.reset()
                try insertRow.bind(item.id, at: 1)
                try insertRow.bind("", at: 2)
                try insertRow.bind(item.kinds, at: 3)
                for (offset, value) in item.columns.enumerated() { try insertRow.bind(value, at: Int32(offset + 4)) }
                sequence += 1
                // The row points at its queued operation (the queue has no index on the item).
                try insertRow.bind(sequence, at: 10)
                try insertRow.run()
                insertOperation.reset()
                try insertOperation.bind(sequence, at: 1)
                try insertOperation.bind(bytes: item.operationId, at: 2)
                try insertOperation.bind(item.id, at: 3)
                try insertOperation.bind(638_000_000_000_000_000 + sequence, at: 4)
                try insertOperation.run()
            }
        }
    }

    func close() throws {
        try database.close()
    }
}
