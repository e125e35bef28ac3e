/// Why a ``NetworkMonitor`` could not start.
public enum NetworkMonitorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed, with its `errno`.
    case system(call: String, errno: Int32)

    /// The failed call and its error number.
    public var description: String {
        switch self {
        case .system(let call, let errno): "network monitor: \(call) failed (errno \(errno))"
        }
    }
}
