import Foundation

#if canImport(Glibc)
    import Glibc

    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin

    private let streamSocket = SOCK_STREAM
    private let sendFlags: Int32 = 0
#endif

// The C calls, under names the class's own methods do not shadow.
private func socketSend(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    send(descriptor, bytes.baseAddress, bytes.count, sendFlags)
}

private func socketClose(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// A non-blocking TCP connection to 127.0.0.1 that sends exactly the bytes it is given, so tests can play
/// clients that stop halfway through a request. It never blocks a thread: waits poll and sleep.
///
/// Closing twice is harmless: the second close must not hit a descriptor number the server (in the same
/// process) has reused meanwhile.
final class RawConnection: Sendable {
    private let descriptor: Int32
    private let closed = LockedFlag()

    /// What became of a connection while a test waited on it.
    enum Outcome: Equatable {
        /// The server closed it, after sending these bytes.
        case closed(received: String)
        /// Still open when the wait ended, with these bytes received.
        case open(received: String)
    }

    /// Connects to `127.0.0.1:port`; the connection may still be completing when this returns.
    /// `receiveBufferSize` shrinks the socket's receive buffer (a reader that holds little before it stops
    /// the sender).
    init(port: Int, receiveBufferSize: Int32? = nil) throws {
        let socketDescriptor = socket(AF_INET, streamSocket, 0)
        guard socketDescriptor >= 0 else { throw RawConnectionError.socket(errno) }
        if var size = receiveBufferSize {
            _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        _ = fcntl(socketDescriptor, F_SETFL, fcntl(socketDescriptor, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 || errno == EINPROGRESS else {
            let error = errno
            socketClose(socketDescriptor)
            throw RawConnectionError.connect(error)
        }
        descriptor = socketDescriptor
    }

    /// Sends all of `text`, waiting (up to `timeout`) while the socket is not writable.
    func send(_ text: String, timeout: Duration = .seconds(10)) async throws {
        var bytes = Array(text.utf8)[...]
        let deadline = ContinuousClock.now + timeout
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { socketSend(descriptor, $0) }
            if sent > 0 {
                bytes = bytes.dropFirst(sent)
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOTCONN {
                guard ContinuousClock.now < deadline else { throw RawConnectionError.timedOut }
                try await Task.sleep(for: .milliseconds(10))
            } else {
                throw RawConnectionError.send(errno)
            }
        }
    }

    /// Sends all of `bytes` from the calling thread, blocking it (polling every 10 ms while the socket is not
    /// writable): for senders on a thread of their own, which a busy task pool cannot delay.
    func sendBlocking(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            let sent = rest.withUnsafeBytes { socketSend(descriptor, $0) }
            if sent > 0 {
                rest = rest.dropFirst(sent)
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOTCONN {
                usleep(10_000)
            } else {
                throw RawConnectionError.send(errno)
            }
        }
    }

    /// Reads until the server closes the connection or `timeout` passes.
    func waitForClose(timeout: Duration) async throws -> Outcome {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                received += buffer[..<count]
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN) {
                return .closed(received: String(decoding: received, as: UTF8.self))
            }
            guard ContinuousClock.now < deadline else {
                return .open(received: String(decoding: received, as: UTF8.self))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Closes the client side (once).
    func close() {
        if closed.set() { socketClose(descriptor) }
    }

    deinit {
        close()
    }
}

/// A flag that is set once, under a lock.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// Sets the flag; `true` when it was not set before.
    func set() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !isSet else { return false }
        isSet = true
        return true
    }
}

enum RawConnectionError: Error {
    case socket(Int32)
    case connect(Int32)
    case send(Int32)
    case timedOut
}
