@_spi(SyncTablesTools) import SyncTablesCore

/// How a ``TableStorage`` tells the change feeds about the writes it commits.
///
/// The storage calls ``announcement(table:row:)`` with the row a write stored (or, for a delete, the row it
/// removed), since only the row knows whose it is. SQLite hands the announcements to the hub once the write
/// has committed (``publish(_:)``); PostgreSQL sends them with `pg_notify` inside the write's transaction,
/// and every instance's listener hands them to its hub (see ``PostgresChangeListener``).
struct ChangeAnnouncer: Sendable {
    /// The owner or claim column of each declared table with such a rule, by table name.
    let scopeColumns: [String: String]
    /// This instance's hub; `nil` when change feeds are off (then nothing is announced at all).
    let hub: ChangeHub?

    /// Announces nothing: change feeds are off.
    static let silent = ChangeAnnouncer(scopeColumns: [:], hub: nil)

    /// Announces to `hub`, scoping the declared tables' rows by their owner or claim column.
    init(declarations: TableDeclarations?, hub: ChangeHub?) {
        var columns: [String: String] = [:]
        for (name, declaration) in declarations?.tables ?? [:] {
            if let column = declaration.access.stampedColumn { columns[name] = column }
        }
        self.init(scopeColumns: columns, hub: hub)
    }

    init(scopeColumns: [String: String], hub: ChangeHub?) {
        self.scopeColumns = scopeColumns
        self.hub = hub
    }

    /// Whether writes are announced.
    var isActive: Bool { hub != nil }

    /// The announcement of a write of `row` (the stored row, or the removed one) in `table`.
    func announcement(table: String, row: JSONObject?) -> ChangeAnnouncement {
        guard let column = scopeColumns[table], case .string(let value)? = row?[column] else {
            return ChangeAnnouncement(table: table, scope: nil)
        }
        return ChangeAnnouncement(table: table, scope: value)
    }

    /// The announcements of rows written together (a seed): one per table and scope value, in first-seen order.
    func announcements(table: String, rows: [JSONObject]) -> [ChangeAnnouncement] {
        var seen: Set<ChangeAnnouncement> = []
        return rows.map { announcement(table: table, row: $0) }.filter { seen.insert($0).inserted }
    }

    /// Hands committed changes to the hub (the SQLite backend, after its commit).
    func publish(_ announcements: [ChangeAnnouncement]) {
        guard let hub, !announcements.isEmpty else { return }
        hub.publish(announcements)
    }

    /// Tells the hub that it cannot say what changed (every row was removed by the test controls).
    func publishReset(reason: String) {
        hub?.reset(reason: reason)
    }
}
