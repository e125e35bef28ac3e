/// Where an incremental pull stands: the newest `updatedAt` it committed and, when the server pages by
/// keyset, the id of the last record at that time.
///
/// Stored in `__config` as `<ISO-8601>` (the watermark of a pull without keysets, as written by earlier
/// versions; see the *Wire protocol* article, section *Incremental pull*)
/// or `<ISO-8601>|<id>` (a keyset position). A token without an id stands before every record of its time,
/// so an old token is read as the start of its time and upgraded by the first page pulled with keysets.
struct DeltaToken: Sendable, Hashable {
    /// The newest `updatedAt` committed.
    var updatedAt: Timestamp
    /// The id of the last record committed at ``updatedAt``, for a keyset position.
    var itemId: String?

    /// Where a query id's first pull starts.
    static let start = DeltaToken(updatedAt: .epoch)

    init(updatedAt: Timestamp, itemId: String? = nil) {
        self.updatedAt = updatedAt
        self.itemId = itemId
    }

    /// Reads a stored token; `nil` when it is neither form.
    init?(storedValue: String) {
        let parts = storedValue.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard let updatedAt = Timestamp(parsing: String(parts[0])) else { return nil }
        self.updatedAt = updatedAt
        if parts.count == 2 {
            let id = String(parts[1])
            guard ItemID.isValid(id) else { return nil }
            itemId = id
        }
    }

    /// The keyset position of a pulled record: its `updatedAt` and id, when it has both.
    init?(position record: JSONObject) {
        guard let updatedAt = record["updatedAt"]?.stringValue.flatMap(Timestamp.init(parsing:)),
            case .string(let id)? = record["id"], ItemID.isValid(id)
        else { return nil }
        self.init(updatedAt: updatedAt, itemId: id)
    }

    /// The text stored in `__config`.
    var storedValue: String {
        updatedAt.iso8601 + (itemId.map { "|" + $0 } ?? "")
    }

    /// Whether this position comes after `other` in the server's order: by `updatedAt`, then by id compared
    /// as UTF-8 bytes (how `sync-server` orders text).
    func isAfter(_ other: DeltaToken) -> Bool {
        if updatedAt != other.updatedAt { return updatedAt > other.updatedAt }
        guard let id = itemId else { return false }
        guard let otherID = other.itemId else { return true }
        return otherID.utf8.lexicographicallyPrecedes(id.utf8)
    }
}
