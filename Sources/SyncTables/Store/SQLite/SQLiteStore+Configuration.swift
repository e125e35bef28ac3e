extension SQLiteStore {
    /// Tuning for ``SQLiteStore``; the defaults favour durability.
    public struct Configuration: Sendable, Hashable {
        /// How hard SQLite works to make each commit survive a power cut.
        public enum Synchronous: String, Sendable, Hashable {
            /// Every commit is on disk before `write` returns (the default).
            case full = "FULL"
            /// Commits survive an app crash; the last ones may be lost on power failure. Faster.
            case normal = "NORMAL"
        }

        /// How long to wait for another connection's lock before failing with ``StoreError/busy(message:)``.
        public var busyTimeoutMilliseconds: Int32
        /// The durability level of commits.
        public var synchronous: Synchronous

        /// Creates a configuration.
        public init(busyTimeoutMilliseconds: Int32 = 5_000, synchronous: Synchronous = .full) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.synchronous = synchronous
        }
    }
}
