import Foundation

/// Spelling names and constants into PostgreSQL text (everything else is a bound parameter).
enum PostgresSQL {
    /// A quoted identifier: `"name"` with inner quotes doubled.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A quoted string literal: `'text'` with inner quotes doubled (property names inside JSON paths, which
    /// must be literals so the expression indexes match the queries).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The relation a table's rows live in: the lowercased name (SQLite's table names ignore case too),
    /// shortened with a hash when it would not leave room for index names under PostgreSQL's 63-byte limit.
    static func relation(_ table: String) -> String {
        let name = table.lowercased()
        guard name.utf8.count > 48 else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(name.prefix(30)) + "_" + String(hash, radix: 16)
    }
}
