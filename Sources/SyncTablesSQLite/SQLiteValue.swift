/// One SQLite value, as bound to a statement parameter or read from a result column.
///
/// Projected store columns have no declared type, so a value keeps the storage class it was bound with.
@_spi(SyncTablesTools) public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE double.
    case real(Double)
    /// UTF-8 text (may contain NUL characters).
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}
