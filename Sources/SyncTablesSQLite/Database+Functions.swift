#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

extension Database {
    /// The Swift body of a registered SQL function: the arguments in, one value out.
    @_spi(SyncTablesTools) public typealias ScalarFunction = ([SQLiteValue]) throws -> SQLiteValue

    /// Registers a scalar SQL function backed by a Swift closure.
    ///
    /// `argumentCount` of `-1` accepts any number of arguments. Deterministic functions may be used by the
    /// query planner more freely (and in indexes). A thrown error becomes the statement's error.
    ///
    /// ```swift
    /// try database.createFunction(name: "twice", argumentCount: 1) { arguments in
    ///     if case .integer(let value) = arguments[0] { return .integer(value * 2) }
    ///     return .null
    /// }
    /// ```
    @_spi(SyncTablesTools) public func createFunction(
        name: String,
        argumentCount: Int32,
        deterministic: Bool = true,
        _ body: @escaping ScalarFunction
    ) throws(SQLiteError) {
        let connection = try connection()
        // The box is retained by SQLite and released by the destructor when the function is replaced or the
        // connection closes.
        let context = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let code = sqlite3_create_function_v2(
            connection, name, argumentCount, flags, context,
            { context, count, arguments in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let box = Unmanaged<FunctionBox>.fromOpaque(data).takeUnretainedValue()
                var values: [SQLiteValue] = []
                values.reserveCapacity(Int(count))
                for index in 0..<Int(count) {
                    values.append(SQLiteValue(functionArgument: arguments?[index]))
                }
                do {
                    let result = try box.body(values)
                    result.setAsResult(of: context)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { data in
                guard let data else { return }
                Unmanaged<FunctionBox>.fromOpaque(data).release()
            }
        )
        guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: nil) }
    }
}

/// Holds a registered function's closure for the lifetime SQLite gives it.
private final class FunctionBox {
    let body: Database.ScalarFunction
    init(_ body: @escaping Database.ScalarFunction) { self.body = body }
}

extension SQLiteValue {
    /// Reads a function argument.
    fileprivate init(functionArgument value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: self = .null
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let pointer = sqlite3_value_text(value) else {
                self = .text("")
                return
            }
            let count = Int(sqlite3_value_bytes(value))
            self = .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        default:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let base = sqlite3_value_blob(value) else {
                self = .blob([])
                return
            }
            self = .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        }
    }

    /// Hands this value back to SQLite as a function result.
    fileprivate func setAsResult(of context: OpaquePointer) {
        switch self {
        case .null: sqlite3_result_null(context)
        case .integer(let integer): sqlite3_result_int64(context, integer)
        case .real(let real): sqlite3_result_double(context, real)
        case .text(var text):
            text.withUTF8 { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    sqlite3_result_text(context, "", 0, Statement.transient)
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_result_text(context, $0, Int32(clamping: buffer.count), Statement.transient)
                }
            }
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    sqlite3_result_zeroblob(context, 0)
                    return
                }
                sqlite3_result_blob(context, base, Int32(clamping: buffer.count), Statement.transient)
            }
        }
    }
}
