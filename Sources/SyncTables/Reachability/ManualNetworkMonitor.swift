/// A network monitor the app sets itself: when it knows better than the system (a kiosk with a known link,
/// an "offline mode" switch), or in tests.
///
/// ```swift
/// let network = ManualNetworkMonitor(.online)
/// let engine = SyncEngine(context: context, definitions: definitions, networkMonitor: network)
/// network.set(.offline)   // the engine goes `offline` and sends nothing
/// network.set(.online)    // and syncs at once
/// ```
public final class ManualNetworkMonitor: NetworkMonitor {
    private let broadcaster: Broadcaster<NetworkReachability>

    /// A monitor reporting `initial` until told otherwise.
    public init(_ initial: NetworkReachability = .online) {
        broadcaster = Broadcaster(current: initial)
    }

    /// The reachability it reports.
    public var current: NetworkReachability { broadcaster.value }

    /// Reports `reachability` (nothing happens if it does not change).
    public func set(_ reachability: NetworkReachability) {
        broadcaster.send(reachability)
    }

    /// The reachability now, then at every change.
    public func reachability() -> AsyncStream<NetworkReachability> {
        broadcaster.subscribe()
    }
}
