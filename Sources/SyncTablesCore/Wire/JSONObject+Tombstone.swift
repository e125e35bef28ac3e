extension JSONObject {
    /// Whether the item is soft-deleted (`"deleted": true`).
    ///
    /// The client asks this of every server item before storing it (a tombstone is never stored as a live
    /// row); the server of every row before serving or changing it. Anything but `true` (absent, `false`,
    /// `null`) is a live item.
    ///
    /// ```swift
    /// (["id": "a", "deleted": true] as JSONObject).isTombstone  // true
    /// ```
    @_spi(SyncTablesTools) public var isTombstone: Bool { self["deleted"] == .bool(true) }
}
