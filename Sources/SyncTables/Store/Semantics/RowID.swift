/// A row key compared byte for byte, like SQLite's BINARY collation.
///
/// Swift's `String` equality treats canonically equivalent strings (`"é"` and `"e\u{301}"`) as equal; the
/// store must not, or two distinct ids would collapse into one row.
struct RowID: Hashable, Sendable {
    /// The id as given.
    let id: String

    init(_ id: String) {
        self.id = id
    }

    static func == (lhs: RowID, rhs: RowID) -> Bool {
        lhs.id.utf8.elementsEqual(rhs.id.utf8)
    }

    func hash(into hasher: inout Hasher) {
        for byte in id.utf8 { hasher.combine(byte) }
    }
}

/// The id rules every store applies to items it stores.
enum ItemKey {
    /// The item's `id` when it is a non-empty string, else ``StoreError/missingID(table:)``.
    static func id(of item: JSONObject, table: String) throws(StoreError) -> String {
        guard case .string(let id)? = item["id"], !id.isEmpty else { throw StoreError.missingID(table: table) }
        return id
    }
}
