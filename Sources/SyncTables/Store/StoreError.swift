/// Why a store refused or failed an operation.
public enum StoreError: Error, Sendable, Hashable {
    /// The table name is not an identifier (letter or `_`, then letters, digits, `_`; at most 128).
    case invalidTableName(String)
    /// The table was never defined.
    case unknownTable(String)
    /// An item to store has no string `id`.
    case missingID(table: String)
    /// The store was closed.
    case closed
    /// The underlying database failed; `code` is the engine's result code, `message` its text.
    case database(code: Int32, message: String, sql: String?)
    /// The database file is not a database, or is damaged.
    case corrupt(message: String)
    /// The disk or the database is full.
    case full(message: String)
    /// Another process held the database locked longer than the busy timeout.
    case busy(message: String)
    /// Stored data could not be decoded.
    case invalidStoredData(table: String, id: String?, message: String)
}
