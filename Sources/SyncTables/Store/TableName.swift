/// The rules for table names, shared by every store so they accept and refuse exactly the same names.
enum TableName {
    /// The longest accepted table name.
    static let maximumLength = 128

    /// Validates `name` and returns the key both stores use to find the table: names are ASCII identifiers
    /// compared case-insensitively (as SQLite compares table names), so `TodoItem` and `todoitem` are one table.
    ///
    /// Names reserved by the stores themselves (`sqlite_…`, `__synctables…`) are refused too.
    static func key(_ name: String) throws(StoreError) -> String {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, scalars.count <= maximumLength else {
            throw StoreError.invalidTableName(name)
        }
        guard isASCIILetter(first) || first == "_" else { throw StoreError.invalidTableName(name) }
        for scalar in scalars where !(isASCIILetter(scalar) || scalar == "_" || ("0"..."9").contains(scalar)) {
            throw StoreError.invalidTableName(name)
        }
        let key = name.lowercased()
        guard !key.hasPrefix("sqlite_"), !key.hasPrefix(reservedPrefix) else {
            throw StoreError.invalidTableName(name)
        }
        return key
    }

    /// The prefix of the stores' own bookkeeping tables.
    static let reservedPrefix = "__synctables"

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
