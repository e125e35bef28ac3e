/// Which changes one caller's feed carries: the changes of the tables it may read (and asked for), and in
/// tables whose rows belong to an owner or a claim value, only the changes of its own rows.
///
/// Built once when the feed opens, from the same access rules as the table routes (``TableService/access(_:caller:)``),
/// and applied to every change: live ones and replayed ones alike.
struct ChangeAudience: Sendable {
    /// The rows of a table whose changes the feed carries.
    enum Rows: Sendable, Hashable {
        /// Every row's.
        case all
        /// Only those of rows whose owner or claim column holds this value.
        case scoped(String)
    }

    /// The tables by lowercased name (table names ignore case), or `nil` for every table.
    let tables: [String: Rows]?

    /// Every change of every table: development mode without a `tables` filter.
    static let everything = ChangeAudience(tables: nil)

    /// Whether the feed carries `record`.
    func admits(_ record: ChangeRecord) -> Bool {
        guard let tables else { return true }
        switch tables[record.tableKey] {
        case nil: return false
        case .all?: return true
        case .scoped(let value)?: return record.scope == value
        }
    }

    /// The audience of `caller`'s feed on `service`'s tables; `requested` names the tables of a `tables=` filter.
    ///
    /// With declared tables, a table named in `requested` answers as a request to it would: 404 when it is not
    /// declared, 401 or 403 when the caller may not read it. Without a filter, every declared table the caller
    /// may read; a caller whose token names no user gets 401 (as from any declared table).
    init(caller: Caller, requested: [String]?, service: TableService) throws(ServerError) {
        guard let declarations = service.declarations else {
            tables = requested.map { names in
                Dictionary(names.map { ($0.lowercased(), Rows.all) }, uniquingKeysWith: { first, _ in first })
            }
            return
        }
        var readable: [String: Rows] = [:]
        for name in requested ?? declarations.tables.keys.sorted() {
            let scope: RowScope
            do {
                scope = try service.access(name, caller: caller).1
            } catch let refusal where requested == nil && refusal.status != .unauthorized {
                continue  // a table this caller may not read, which it did not ask for
            }
            readable[name.lowercased()] = scope.stamp.map { .scoped($0.value) } ?? .all
        }
        tables = readable
    }

    init(tables: [String: Rows]?) {
        self.tables = tables
    }
}
