/// Tells the ``SyncEngine`` whether the network is up, so that it sends nothing while it is down and syncs
/// as soon as it comes back.
///
/// Use the platform's monitor (``SystemNetworkMonitor``), or ``ManualNetworkMonitor`` when the app knows
/// better (or in tests).
///
/// ```swift
/// let engine = SyncEngine(context: context, definitions: definitions, networkMonitor: try SystemNetworkMonitor())
/// ```
public protocol NetworkMonitor: Sendable {
    /// The reachability now, then at every change.
    func reachability() -> AsyncStream<NetworkReachability>
}

/// Whether the device can reach a network.
public enum NetworkReachability: Sendable, Hashable, CustomStringConvertible {
    /// A network is up: requests may succeed.
    case online
    /// No network: requests cannot succeed.
    case offline

    /// `online` or `offline`.
    public var description: String {
        switch self {
        case .online: "online"
        case .offline: "offline"
        }
    }
}
