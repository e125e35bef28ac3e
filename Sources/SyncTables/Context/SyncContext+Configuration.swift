import Foundation

extension SyncContext {
    /// How a context pushes, bounds its queue and keeps its records; fixed when the context opens.
    ///
    /// ```swift
    /// var configuration = SyncContext.Configuration()
    /// configuration.conflictPolicy = .serverWins
    /// configuration.maxQueueSize = 10_000
    /// let context = try await SyncContext(store: store, client: client, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// What push does with conflicts (409/412); a ``SyncDefinition`` may name another for its table.
        public var conflictPolicy: ConflictPolicy
        /// The hook around each pushed operation, if any.
        public var pushHandler: (any PushHandler)?
        /// The most operations the queue may hold (dead ones included); `nil`: no limit.
        ///
        /// A local write that would add operations beyond it throws ``SyncError/queueFull(limit:)`` and
        /// changes nothing; a write that collapses into an operation already queued (an update of an item whose
        /// insert waits, say) is allowed however full the queue is. Operations queued before a context with a
        /// lower limit opened the store stay. Negative limits count as zero.
        public var maxQueueSize: Int? {
            didSet { maxQueueSize = maxQueueSize.map { max(0, $0) } }
        }
        /// How much operation history is kept (see ``SyncContext/history(table:limit:)``); by default the latest
        /// 1,000 entries. A retention of zero entries records nothing.
        public var historyRetention: OperationHistoryRetention
        /// How long another pusher of the same store file waits for this one after it stopped without finishing
        /// (killed mid-push, say): a push renews its lease with every operation, so make it longer than one
        /// request may take.
        public var pushLeaseDuration: Duration
        /// Dates queued operations and the entries of the operation history; a ``SyncEngine`` made without a
        /// clock of its own uses it too.
        public var clock: any SyncClock
        /// Where attachment files are kept; by default a folder beside the store's file (`<file>.blobs`), or
        /// a temporary folder for a store in memory.
        public var attachmentDirectory: URL? = nil
        /// How long an attachment file no row references is kept: it covers the time between importing a file
        /// and storing the item that references it. One hour by default.
        public var attachmentGracePeriod: Duration = .seconds(3_600)
        /// The most bytes of attachment files kept on the device (`nil`: no limit). Beyond it,
        /// ``SyncContext/collectAttachments()`` removes the least recently used files the server has, except
        /// pinned ones that a row references; they are downloaded again when needed.
        public var attachmentCacheBytes: Int64? = nil

        /// A configuration; every parameter has the default a typical app wants.
        public init(
            conflictPolicy: ConflictPolicy = .manual,
            pushHandler: (any PushHandler)? = nil,
            maxQueueSize: Int? = nil,
            historyRetention: OperationHistoryRetention = .default,
            pushLeaseDuration: Duration = .seconds(60),
            clock: any SyncClock = SystemSyncClock()
        ) {
            self.conflictPolicy = conflictPolicy
            self.pushHandler = pushHandler
            self.maxQueueSize = maxQueueSize.map { max(0, $0) }
            self.historyRetention = historyRetention
            self.pushLeaseDuration = pushLeaseDuration
            self.clock = clock
        }
    }
}
