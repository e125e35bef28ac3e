#if canImport(Network)
    import Dispatch
    import Network

    /// The network as `NWPathMonitor` sees it (Apple platforms): online when the path is satisfied.
    public final class PathNetworkMonitor: NetworkMonitor, @unchecked Sendable {
        // NWPathMonitor calls back on `queue`; the broadcaster is thread-safe.
        private let monitor = NWPathMonitor()
        private let queue = DispatchQueue(label: "SyncTables.PathNetworkMonitor")
        private let broadcaster: Broadcaster<NetworkReachability>

        /// Starts monitoring at once. It never throws; it is declared `throws` so that
        /// `try SystemNetworkMonitor()` reads the same on every platform.
        ///
        /// - Throws: Never (see above).
        public init() throws {
            let broadcaster = Broadcaster<NetworkReachability>(
                current: monitor.currentPath.status == .satisfied ? .online : .offline)
            self.broadcaster = broadcaster
            monitor.pathUpdateHandler = { path in
                broadcaster.send(path.status == .satisfied ? .online : .offline)
            }
            monitor.start(queue: queue)
        }

        deinit {
            monitor.cancel()
        }

        /// The reachability now, then at every change.
        public func reachability() -> AsyncStream<NetworkReachability> {
            broadcaster.subscribe()
        }
    }

    /// The platform's network monitor: `NWPathMonitor` on Apple platforms, netlink on Linux.
    public typealias SystemNetworkMonitor = PathNetworkMonitor
#endif
