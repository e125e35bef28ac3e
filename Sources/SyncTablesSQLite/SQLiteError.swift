#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

/// A failure reported by SQLite: the result codes, the engine's message and the SQL that failed.
@_spi(SyncTablesTools) public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...), the low 8 bits of ``extendedCode``.
    @_spi(SyncTablesTools) public var code: Int32 { extendedCode & 0xFF }
    /// The extended result code (for example `SQLITE_IOERR_WRITE`).
    @_spi(SyncTablesTools) public let extendedCode: Int32
    /// The engine's explanation.
    @_spi(SyncTablesTools) public let message: String
    /// The statement that failed, when there was one.
    @_spi(SyncTablesTools) public let sql: String?
    /// `true` for a violated constraint (`SQLITE_CONSTRAINT`: primary key, unique, not null, check).
    @_spi(SyncTablesTools) public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// Creates an error from its parts.
    @_spi(SyncTablesTools) public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Creates an error from the last failure recorded on a connection.
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "SQLite error \(code)"
        }
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // sqlite3_extended_errcode reports the connection's most recent failure; prefer the code we were
        // handed when the two disagree (for example after a failed open without a usable handle).
        self.init(extendedCode: (extended & 0xFF) == (code & 0xFF) ? extended : code, message: message, sql: sql)
    }

    /// A readable summary: code, message and SQL.
    @_spi(SyncTablesTools) public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (SQL: \(sql))" }
        return text
    }
}
