#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether another process already listens on a port, checked before the server starts so that a busy
/// port is one clear line instead of a bind error from deep inside the HTTP stack.
enum PortCheck {
    /// `true` when `port` on the IPv4 address `host` cannot be bound because it is in use. Other hosts
    /// (names, IPv6) and port 0 are not checked: the server's own bind reports them.
    static func isInUse(host: String, port: Int) -> Bool {
        guard port > 0, port <= 65535 else { return false }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // The server binds with SO_REUSEADDR too, so only a port that is really taken fails here.
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result != 0 && errno == EADDRINUSE
    }

    /// `true` when an error thrown while starting the server says the address is in use.
    static func isAddressInUse(_ error: any Error) -> Bool {
        String(describing: error).contains("Address already in use")
    }
}
