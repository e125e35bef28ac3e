#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

/// A prepared SQL statement: bind parameters, step through rows, read columns, reset, reuse.
///
/// Parameter and column indexes follow SQLite: parameters start at 1, columns at 0. A statement belongs
/// to its ``Database`` and, like it, is not thread-safe.
///
/// ```swift
/// let statement = try database.cachedStatement("SELECT _json FROM items WHERE id = ?")
/// try statement.bind(.text("a"), at: 1)
/// while try statement.step() { print(statement.text(at: 0) ?? "") }
/// ```
@_spi(SyncTablesTools) public final class Statement {
    /// The SQL text this statement was prepared from.
    @_spi(SyncTablesTools) public let sql: String
    let handle: OpaquePointer
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw SQLiteError(connection: connection, code: code, sql: sql)
        }
        self.connection = connection
        self.handle = prepared
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` parameters.
    @_spi(SyncTablesTools) public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// The number of result columns.
    @_spi(SyncTablesTools) public var columnCount: Int32 { sqlite3_column_count(handle) }

    // MARK: Binding

    /// Binds a value to the parameter at `index` (1-based).
    @_spi(SyncTablesTools) public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, index))
        case .integer(let integer): try check(sqlite3_bind_int64(handle, index, integer))
        case .real(let real): try check(sqlite3_bind_double(handle, index, real))
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes: bytes, at: index)
        }
    }

    /// Binds text to the parameter at `index`, with its exact UTF-8 length (NUL characters survive).
    @_spi(SyncTablesTools) public func bind(_ text: String, at index: Int32) throws(SQLiteError) {
        var text = text
        let code = text.withUTF8 { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                // A nil pointer would bind NULL; an empty string must stay an empty string.
                return sqlite3_bind_text(handle, index, "", 0, Self.transient)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text(handle, index, $0, Int32(clamping: buffer.count), Self.transient)
            }
        }
        try check(code)
    }

    /// Binds UTF-8 bytes as text to the parameter at `index` (no `String` needed).
    @_spi(SyncTablesTools) public func bind(utf8 bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let code = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, Self.transient)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text(handle, index, $0, Int32(clamping: buffer.count), Self.transient)
            }
        }
        try check(code)
    }

    /// Binds a 64-bit integer to the parameter at `index`.
    @_spi(SyncTablesTools) public func bind(_ integer: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, integer))
    }

    /// Binds bytes to the parameter at `index`.
    @_spi(SyncTablesTools) public func bind(bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let code = bytes.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob(handle, index, base, Int32(clamping: buffer.count), Self.transient)
        }
        try check(code)
    }

    /// Binds `values` to parameters 1, 2, ...
    @_spi(SyncTablesTools) public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Sets every parameter back to `NULL`.
    @_spi(SyncTablesTools) public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: Stepping

    /// Advances to the next row; returns `false` when the statement is done.
    @discardableResult
    @_spi(SyncTablesTools) public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // Reset so the statement is reusable and the error code is the real one (legacy step API).
            sqlite3_reset(handle)
            throw SQLiteError(connection: connection, code: code, sql: sql)
        }
    }

    /// Steps until the statement is done, ignoring any rows.
    @_spi(SyncTablesTools) public func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Makes the statement ready to run again; bindings are kept.
    @_spi(SyncTablesTools) public func reset() {
        sqlite3_reset(handle)
    }

    // MARK: Columns

    /// The value of column `index` (0-based) of the current row.
    @_spi(SyncTablesTools) public func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        default:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let base = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        }
    }

    /// `true` when column `index` (0-based) of the current row is `NULL`.
    @_spi(SyncTablesTools) public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The text of column `index`, or `nil` when it is `NULL`.
    @_spi(SyncTablesTools) public func text(at index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The integer value of column `index` (`0` for `NULL`).
    @_spi(SyncTablesTools) public func integer(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Calls `body` with the raw UTF-8 bytes of column `index` without copying them.
    @_spi(SyncTablesTools) public func withUTF8Bytes<Result>(
        at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows
        -> Result
    {
        let pointer = sqlite3_column_text(handle, index)
        let count = pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeBufferPointer(start: pointer, count: count))
    }

    // MARK: Helpers

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: sql) }
    }

    /// SQLite's `SQLITE_TRANSIENT`: copy the bound bytes before returning.
    static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }
}
