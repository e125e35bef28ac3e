/// The most recent changes of a hub, at most ``limit``, oldest first: what a feed resuming after a position
/// replays. Older changes fall out as new ones come in.
struct ChangeHistory: Sendable {
    /// The most changes kept.
    let limit: Int
    private var ring: [ChangeRecord] = []
    /// The index in `ring` of the oldest change, once the ring is full.
    private var start = 0

    init(limit: Int) {
        self.limit = max(0, limit)
        ring.reserveCapacity(min(self.limit, 1024))
    }

    /// How many changes are kept.
    var count: Int { ring.count }

    /// The sequence of the oldest change kept, or `nil` when none is.
    var oldestSequence: UInt64? { ring.isEmpty ? nil : ring[start].sequence }

    /// Keeps `record`, dropping the oldest change when full.
    mutating func append(_ record: ChangeRecord) {
        guard limit > 0 else { return }
        if ring.count < limit {
            ring.append(record)
        } else {
            ring[start] = record
            start = (start + 1) % limit
        }
    }

    /// The changes after `sequence` that `include` accepts, oldest first.
    func records(after sequence: UInt64, where include: (ChangeRecord) -> Bool) -> [ChangeRecord] {
        var found: [ChangeRecord] = []
        // Sequences grow along the ring: walk back from the newest to the first one after `sequence`.
        var offset = ring.count
        while offset > 0, self[offset - 1].sequence > sequence { offset -= 1 }
        for index in offset..<ring.count where include(self[index]) { found.append(self[index]) }
        return found
    }

    /// Forgets every change.
    mutating func removeAll() {
        ring.removeAll(keepingCapacity: true)
        start = 0
    }

    private subscript(logical: Int) -> ChangeRecord {
        ring[(start + logical) % ring.count]
    }
}
