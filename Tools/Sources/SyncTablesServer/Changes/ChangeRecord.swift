/// A change a hub learned of, at its place in the hub's sequence: what feeds deliver and history replays.
struct ChangeRecord: Sendable, Hashable {
    /// Its place in the hub's sequence.
    let sequence: UInt64
    /// The table, as the write named it.
    let table: String
    /// The table's name lowercased: how feeds match it (table names ignore case in both backends).
    let tableKey: String
    /// The owner or claim value of the row, or `nil` (see ``ChangeAnnouncement``).
    let scope: String?

    init(sequence: UInt64, announcement: ChangeAnnouncement) {
        self.sequence = sequence
        table = announcement.table
        tableKey = announcement.table.lowercased()
        scope = announcement.scope
    }
}
