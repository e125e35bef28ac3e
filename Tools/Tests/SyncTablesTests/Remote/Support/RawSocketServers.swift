#if canImport(Glibc)
    import Foundation
    import Glibc

    /// Plain POSIX sockets for the network failures an HTTP framework will not produce on purpose.
    enum RawSocket {
        /// Creates a TCP socket bound to 127.0.0.1 on an ephemeral port; returns the descriptor and port.
        static func bindLoopback() throws -> (descriptor: Int32, port: Int) {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw RawSocketError.failed("socket", errno) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(descriptor)
                throw RawSocketError.failed("bind", errno)
            }
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
        }
    }

    enum RawSocketError: Error {
        case failed(String, Int32)
    }

    /// A port on 127.0.0.1 that is reserved (bound) but not listening, so every connection is refused.
    final class RefusingPort: Sendable {
        let port: Int
        private let descriptor: Int32

        init() throws {
            (descriptor, port) = try RawSocket.bindLoopback()
        }

        deinit {
            close(descriptor)
        }

        var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    }

    /// A server that accepts connections, reads the request head, optionally writes some bytes, then closes
    /// the connection: a real dropped connection.
    final class DroppingServer: Sendable {
        let port: Int
        private let descriptor: Int32

        /// - Parameter partialReply: bytes written before closing (empty: close without answering).
        init(partialReply: String = "") throws {
            (descriptor, port) = try RawSocket.bindLoopback()
            guard listen(descriptor, 16) == 0 else { throw RawSocketError.failed("listen", errno) }
            let listener = descriptor
            let reply = Array(partialReply.utf8)
            let thread = Thread {
                while true {
                    let connection = accept(listener, nil, nil)
                    guard connection >= 0 else { return }  // the listener was closed
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    var received = [UInt8]()
                    while !received.containsHeadTerminator {
                        let count = read(connection, &buffer, buffer.count)
                        guard count > 0 else { break }
                        received.append(contentsOf: buffer[0..<count])
                    }
                    if !reply.isEmpty { _ = write(connection, reply, reply.count) }
                    close(connection)
                }
            }
            thread.start()
        }

        deinit {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }

        var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    }

    /// A server on a thread of its own that answers each connection with scripted writes and pauses between
    /// them, then closes it: its timing does not depend on Swift's cooperative threads, which a test suite
    /// running in parallel on two cores can keep busy for seconds.
    final class PacedServer: Sendable {
        let port: Int
        private let descriptor: Int32

        /// - Parameter steps: what to write, and how long to wait after writing it.
        init(steps: [(text: String, pause: Duration)]) throws {
            (descriptor, port) = try RawSocket.bindLoopback()
            guard listen(descriptor, 16) == 0 else { throw RawSocketError.failed("listen", errno) }
            let listener = descriptor
            let script = steps.map { (bytes: Array($0.text.utf8), microseconds: $0.pause.microseconds) }
            let thread = Thread {
                while true {
                    let connection = accept(listener, nil, nil)
                    guard connection >= 0 else { return }  // the listener was closed
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    var received = [UInt8]()
                    while !received.containsHeadTerminator {
                        let count = read(connection, &buffer, buffer.count)
                        guard count > 0 else { break }
                        received.append(contentsOf: buffer[0..<count])
                    }
                    for step in script {
                        _ = write(connection, step.bytes, step.bytes.count)
                        usleep(step.microseconds)
                    }
                    close(connection)
                }
            }
            thread.start()
        }

        deinit {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }

        var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    }

    extension Duration {
        fileprivate var microseconds: UInt32 {
            let (seconds, attoseconds) = components
            return UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        }
    }

    extension [UInt8] {
        fileprivate var containsHeadTerminator: Bool {
            let terminator: [UInt8] = [13, 10, 13, 10]
            guard count >= 4 else { return false }
            return (0...(count - 4)).contains { self[$0..<($0 + 4)].elementsEqual(terminator) }
        }
    }
#endif
