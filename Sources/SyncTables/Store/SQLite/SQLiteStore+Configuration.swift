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
        /// How many bytes of the database file SQLite may read through a memory map instead of `read` calls
        /// (`PRAGMA mmap_size`), on the store's connection and on the one that serves
        /// ``SQLiteStore/lookup(table:id:)``; `0`, the default, reads every page with `pread`. A negative
        /// value counts as `0`; SQLite caps large ones at its compile-time maximum (2 GiB by default).
        ///
        /// Mapping saves a system call and a copy for each page that is not in the page cache: lookups of
        /// random rows of a 100k-row table ran about a tenth faster (see `BENCHMARKS.md`). It is off by
        /// default for what it gives up: an I/O error while reading a mapped page, or another process
        /// cutting the file short, stops the process with `SIGBUS` instead of failing with a ``StoreError``;
        /// and on Apple platforms a file under complete data protection cannot be read through the map while
        /// the device is locked. An encrypted store accepts the setting and ignores it: SQLCipher never maps
        /// encrypted pages.
        public var memoryMapBytes: Int

        /// Creates a configuration.
        public init(
            busyTimeoutMilliseconds: Int32 = 5_000, synchronous: Synchronous = .normal, cacheSizeKiB: Int = 16_384,
            memoryMapBytes: Int = 0
        ) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.synchronous = synchronous
            self.cacheSizeKiB = cacheSizeKiB
            self.memoryMapBytes = memoryMapBytes
        }
    }
}
