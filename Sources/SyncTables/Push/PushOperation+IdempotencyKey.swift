@_spi(SyncTablesTools) import SyncTablesCore

extension PushOperation {
    /// The idempotency key of a write of `operation` carrying `item`: the operation's id, its kind and the
    /// server version the write is based on (its `If-Match`), such as `<id>.update.7` or `<id>.insert`.
    ///
    /// Local edits keep the key: they change neither the kind nor the version the write is based on. So a
    /// resend after a lost answer repeats the key even when the item was edited again meanwhile, and the
    /// server replays the lost write's answer instead of running the edited write on top of it (which would
    /// count a counter's change twice). Once an answer arrives, the next write is based on a new version
    /// and so has a new key. A failed write's key may be sent again: servers record only successful writes.
    /// A version that cannot be part of a key (not printable ASCII, or too long) falls back to the
    /// operation's own version.
    static func idempotencyKey(of operation: PendingOperation, item: JSONObject) -> String {
        let prefix = "\(operation.id).\(operation.kind.rawValue)"
        guard operation.kind != .insert else { return prefix }
        guard let version = ItemVersion.version(of: item) else { return prefix }
        let printable = version.utf8.allSatisfy { (0x21...0x7E).contains($0) }
        guard printable, version.utf8.count <= 160 else { return prefix + "#\(operation.version)" }
        return prefix + "." + version
    }
}
