extension SQLiteStore {
    /// Tuning for ``SQLiteStore``; the defaults keep every commit across an app crash or kill.
    public struct Configuration: Sendable, Hashable {
        /// How hard SQLite works to make each commit survive an operating-system crash or power cut.
        ///
        /// The store always runs in WAL mode, where both settings keep every transaction atomic and the
        /// database consistent. They differ only in what a crash of the whole machine can take back.
        public enum Synchronous: String, Sendable, Hashable {
            /// Every commit is flushed to disk (`fsync`) before `write` returns, so it survives a power cut
            /// too. Costs one flush per transaction (a few hundred to a few thousand per second on typical disks).
            case full = "FULL"
            /// A commit survives the app crashing or being killed at any moment (the default); after an
            /// operating-system crash or power cut the last commits may be rolled back, each one whole
            /// (row and queued operation together), never half.
            case normal = "NORMAL"
        }

        /// How long to wait for another connection's lock before failing with ``StoreError/busy(message:)``.
        public var busyTimeoutMilliseconds: Int32
        /// The durability level of commits.
        public var synchronous: Synchronous
        /// The most memory the connection's page cache may use, in KiB (`PRAGMA cache_size = -N`).
        ///
        /// The default, 16 MiB, holds the pages a batch of ten thousand small items dirties, so a large
        /// transaction does not spill half-written pages to the log and read them back (SQLite's own
        /// default is 2 MiB). The cache fills only as pages are used.
        public var cacheSizeKiB: Int

        /// Creates a configuration.
        public init(
            busyTimeoutMilliseconds: Int32 = 5_000, synchronous: Synchronous = .normal, cacheSizeKiB: Int = 16_384
        ) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.synchronous = synchronous
            self.cacheSizeKiB = cacheSizeKiB
        }
    }
}
