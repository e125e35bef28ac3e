/// One committed write as the change feeds learn of it: the table, and whose row it was.
///
/// `scope` is the value of the table's owner or claim column in the row (a declared table with an `owner` or
/// `claim` rule), which decides which callers hear of the change; `nil` for every other table. A scope value
/// longer than ``maxScopeBytes`` is announced as `nil`, which no owner or claim rule matches: no caller can
/// hold such a value (``RowScope`` refuses them), and a PostgreSQL notification must stay small.
struct ChangeAnnouncement: Sendable, Hashable {
    /// The longest owner or claim value, in UTF-8 bytes, that a change can be announced with.
    static let maxScopeBytes = 1000

    /// The table, as the write named it.
    let table: String
    /// The owner or claim value of the row, or `nil`.
    let scope: String?

    init(table: String, scope: String?) {
        self.table = table
        self.scope = scope.flatMap { $0.utf8.count <= Self.maxScopeBytes ? $0 : nil }
    }
}
