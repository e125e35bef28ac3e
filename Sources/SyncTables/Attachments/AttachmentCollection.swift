/// What ``SyncContext/collectAttachments()`` removed from the device.
public struct AttachmentCollection: Sendable, Hashable {
    /// Files no row referenced for longer than the grace period, removed with what the store knew of them.
    public var unreferenced: Int = 0
    /// Files the server has, evicted (least recently used first) to keep the cache within its budget; they
    /// are downloaded again when needed.
    public var evicted: Int = 0
    /// Files left behind by a crash or an abandoned transfer.
    public var leftovers: Int = 0
    /// The bytes of attachment files freed (``unreferenced`` and ``evicted``).
    public var freedBytes: Int64 = 0
    /// The bytes of attachment files kept on the device.
    public var keptBytes: Int64 = 0

    /// Creates an empty collection.
    public init() {}
}
