extension JSONObject {
    /// Whether the server marks this item as soft-deleted (`"deleted": true`).
    ///
    /// Every path that stores a server item locally asks this first: a tombstone is never stored as a
    /// live row, and anything but `true` (absent, `false`, `null`) is a live item.
    var isTombstone: Bool { self["deleted"] == .bool(true) }
}
