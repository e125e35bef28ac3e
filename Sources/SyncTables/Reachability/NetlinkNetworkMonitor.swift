#if os(Linux)
    import Foundation
    import Glibc
    @_spi(SyncTablesTools) import SyncTablesCore

    /// The network as the Linux kernel sees it, from routing netlink events (no polling): online while a
    /// non-loopback link that is up and running carries an IPv4 route or an IPv6 default route in the main
    /// routing table.
    ///
    /// A dedicated thread waits on a netlink socket subscribed to link, address and route changes; after each
    /// burst of them it reads the links and routes again (two netlink dumps) and reports a change, if any. A
    /// host that only talks to a server on loopback is offline by this definition: use no monitor, or a
    /// ``ManualNetworkMonitor``, there.
    public final class NetlinkNetworkMonitor: NetworkMonitor, @unchecked Sendable {
        let worker: NetlinkWorker

        /// Opens the netlink sockets (in the network namespace of the calling thread) and starts monitoring.
        ///
        /// - Throws: ``NetworkMonitorError`` when the sockets cannot be opened or read.
        public convenience init() throws {
            try self.init(poll: { Glibc.poll($0, $1, $2) })
        }

        /// A monitor whose loop waits through `poll` (tests inject a failing one).
        init(poll: @escaping NetlinkWorker.Poll) throws {
            worker = try NetlinkWorker(poll: poll)
            let worker = worker
            let thread = Thread { worker.run() }
            thread.name = "SyncTables.NetlinkNetworkMonitor"
            thread.start()
        }

        deinit {
            worker.stop()
        }

        /// The reachability now, then at every change.
        public func reachability() -> AsyncStream<NetworkReachability> {
            worker.broadcaster.subscribe()
        }
    }

    /// The platform's network monitor: `NWPathMonitor` on Apple platforms, netlink on Linux.
    public typealias SystemNetworkMonitor = NetlinkNetworkMonitor

    /// The sockets and the loop of a ``NetlinkNetworkMonitor``; its thread owns it until ``stop()``.
    ///
    /// `@unchecked Sendable` is sound because only the loop's thread touches `sequence` and reads the sockets
    /// (after `init`), and the end of the loop is recorded in `ending`, behind its lock.
    final class NetlinkWorker: @unchecked Sendable {
        /// `poll(2)`'s signature.
        typealias Poll = @Sendable (UnsafeMutablePointer<pollfd>, nfds_t, Int32) -> Int32

        let broadcaster: Broadcaster<NetworkReachability>
        private let poll: Poll
        /// Subscribed to change notifications.
        private let events: Int32
        /// Sends dump requests and reads their answers.
        private let queries: Int32
        /// Writing to it ends the loop. The thread closes the read end when it ends, ``stop()`` the write end.
        private let stopPipe: (read: Int32, write: Int32)
        private var sequence: UInt32 = 1
        /// Whether the loop `finished` (and closed its descriptors) and whether ``stop()`` ran: ``stop()`` must
        /// not write once the loop closed its end (it may end on its own, when `poll` fails), or the byte could go
        /// to whatever file reused the descriptor.
        private let ending = LockedState((finished: false, stopped: false))

        init(poll: @escaping Poll) throws {
            self.poll = poll
            events = try Netlink.openSocket(groups: Netlink.changeGroups)
            do {
                queries = try Netlink.openSocket(groups: 0)
            } catch {
                close(events)
                throw error
            }
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                close(events)
                close(queries)
                throw NetworkMonitorError.system(call: "pipe", errno: errno)
            }
            stopPipe = (ends[0], ends[1])
            broadcaster = Broadcaster(current: .offline)
            do {
                broadcaster.send(try readReachability())
            } catch {
                for descriptor in [events, queries, stopPipe.read, stopPipe.write] { close(descriptor) }
                throw error
            }
        }

        /// Whether the loop has ended and closed its descriptors (for tests).
        var loopHasEnded: Bool { ending.withLock { $0.finished } }

        /// The write end of the stop pipe (for tests).
        var stopDescriptor: Int32 { stopPipe.write }

        /// Ends the loop (if it still runs) and releases the write end of the stop pipe; later calls do nothing.
        func stop() {
            ending.withLock { state in
                guard !state.stopped else { return }
                state.stopped = true
                if !state.finished {
                    var byte: UInt8 = 1
                    _ = write(stopPipe.write, &byte, 1)
                }
                close(stopPipe.write)
            }
        }

        /// Waits for change notifications until stopped; each burst leads to one fresh reading.
        func run() {
            defer {
                ending.withLock { state in
                    state.finished = true
                    for descriptor in [events, queries, stopPipe.read] { close(descriptor) }
                }
            }
            var descriptors = [
                pollfd(fd: events, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
            ]
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let ready = self.poll(&descriptors, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if descriptors[1].revents != 0 { return }
                // Drain the burst (ENOBUFS means some were lost: the fresh reading covers them too).
                while true {
                    let received = recv(events, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    if received > 0 || (received < 0 && (errno == ENOBUFS || errno == EINTR)) { continue }
                    break
                }
                if let reachability = try? readReachability() { broadcaster.send(reachability) }
            }
        }

        /// Online when a usable link carries an IPv4 route or an IPv6 default route in the main table.
        private func readReachability() throws -> NetworkReachability {
            var usableLinks = Set<Int32>()
            for message in try dump(type: Netlink.getLink, payloadSize: 16) where message.type == Netlink.newLink {
                guard message.payload.count >= 16 else { continue }
                let index = message.payload.int32(at: 4)
                let flags = message.payload.uint32(at: 8)
                let wanted = Netlink.interfaceUp | Netlink.interfaceRunning
                if flags & wanted == wanted && flags & Netlink.interfaceLoopback == 0 { usableLinks.insert(index) }
            }
            guard !usableLinks.isEmpty else { return .offline }
            for message in try dump(type: Netlink.getRoute, payloadSize: 12) where message.type == Netlink.newRoute {
                let payload = message.payload
                guard payload.count >= 12 else { continue }
                let family = payload[0]
                let destinationLength = payload[1]
                var table = UInt32(payload[4])
                let routeType = payload[7]
                let flags = payload.uint32(at: 8)
                var outputLink: Int32?
                var multipath = false
                for attribute in Netlink.attributes(in: payload, from: 12) {
                    switch attribute.type {
                    case Netlink.routeOutputLink where attribute.value.count >= 4:
                        outputLink = attribute.value.int32(at: 0)
                    case Netlink.routeTable where attribute.value.count >= 4:
                        table = attribute.value.uint32(at: 0)
                    case Netlink.routeMultipath:
                        multipath = true
                    default:
                        break
                    }
                }
                guard table == Netlink.mainTable, routeType == Netlink.unicastRoute,
                    flags & Netlink.linkDownFlag == 0
                else { continue }
                let viaUsableLink = outputLink.map(usableLinks.contains) ?? multipath
                let counts = family == UInt8(AF_INET) || (family == UInt8(AF_INET6) && destinationLength == 0)
                if viaUsableLink && counts { return .online }
            }
            return .offline
        }

        /// Sends a dump request and collects every message of the answer.
        private func dump(type: UInt16, payloadSize: Int) throws -> [Netlink.Message] {
            sequence &+= 1
            let request = Netlink.request(type: type, sequence: sequence, payloadSize: payloadSize)
            let sent = request.withUnsafeBytes { send(queries, $0.baseAddress, $0.count, 0) }
            guard sent == request.count else { throw NetworkMonitorError.system(call: "send", errno: errno) }
            var messages: [Netlink.Message] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let received = recv(queries, &buffer, buffer.count, 0)
                if received < 0 {
                    if errno == EINTR { continue }
                    throw NetworkMonitorError.system(call: "recv", errno: errno)
                }
                for message in Netlink.messages(in: buffer[0..<received]) where message.sequence == sequence {
                    switch message.type {
                    case Netlink.done:
                        return messages
                    case Netlink.error:
                        let code = message.payload.count >= 4 ? message.payload.int32(at: 0) : 0
                        if code != 0 { throw NetworkMonitorError.system(call: "netlink dump", errno: -code) }
                        return messages
                    default:
                        messages.append(message)
                    }
                }
            }
        }
    }

    /// The little of the rtnetlink protocol (linux/netlink.h, linux/rtnetlink.h) the monitor needs.
    private enum Netlink {
        static let done: UInt16 = 3  // NLMSG_DONE
        static let error: UInt16 = 2  // NLMSG_ERROR
        static let newLink: UInt16 = 16  // RTM_NEWLINK
        static let getLink: UInt16 = 18  // RTM_GETLINK
        static let newRoute: UInt16 = 24  // RTM_NEWROUTE
        static let getRoute: UInt16 = 26  // RTM_GETROUTE
        static let routeOutputLink: UInt16 = 4  // RTA_OIF
        static let routeMultipath: UInt16 = 9  // RTA_MULTIPATH
        static let routeTable: UInt16 = 15  // RTA_TABLE
        static let mainTable: UInt32 = 254  // RT_TABLE_MAIN
        static let unicastRoute: UInt8 = 1  // RTN_UNICAST
        static let linkDownFlag: UInt32 = 16  // RTNH_F_LINKDOWN
        static let interfaceUp: UInt32 = 0x1  // IFF_UP
        static let interfaceLoopback: UInt32 = 0x8  // IFF_LOOPBACK
        static let interfaceRunning: UInt32 = 0x40  // IFF_RUNNING
        /// RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE.
        static let changeGroups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400
        private static let family: Int32 = 16  // AF_NETLINK
        private static let routeProtocol: Int32 = 0  // NETLINK_ROUTE

        struct Message {
            let type: UInt16
            let sequence: UInt32
            let payload: [UInt8]
        }

        static func openSocket(groups: UInt32) throws -> Int32 {
            let descriptor = socket(family, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), routeProtocol)
            guard descriptor >= 0 else { throw NetworkMonitorError.system(call: "socket", errno: errno) }
            // struct sockaddr_nl: family (u16), padding (u16), port id (u32, 0: the kernel picks), groups (u32).
            var address = [UInt8](repeating: 0, count: 12)
            address.store(at: 0, with: UInt16(family))
            address.store(at: 8, with: groups)
            let bound = address.withUnsafeBytes {
                bind(descriptor, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
            }
            guard bound == 0 else {
                let code = errno
                close(descriptor)
                throw NetworkMonitorError.system(call: "bind", errno: code)
            }
            return descriptor
        }

        /// A dump request: the 16-byte header then a zeroed family header (`AF_UNSPEC`: every family).
        static func request(type: UInt16, sequence: UInt32, payloadSize: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 16 + payloadSize)
            bytes.store(at: 0, with: UInt32(bytes.count))
            bytes.store(at: 4, with: type)
            bytes.store(at: 6, with: UInt16(0x1 | 0x300))  // NLM_F_REQUEST | NLM_F_DUMP
            bytes.store(at: 8, with: sequence)
            return bytes
        }

        static func messages(in bytes: ArraySlice<UInt8>) -> [Message] {
            let bytes = Array(bytes)
            var messages: [Message] = []
            var offset = 0
            while offset + 16 <= bytes.count {
                let length = Int(bytes.uint32(at: offset))
                guard length >= 16, offset + length <= bytes.count else { break }
                messages.append(
                    Message(
                        type: bytes.uint16(at: offset + 4), sequence: bytes.uint32(at: offset + 8),
                        payload: Array(bytes[(offset + 16)..<(offset + length)])))
                offset += (length + 3) & ~3
            }
            return messages
        }

        static func attributes(in bytes: [UInt8], from start: Int) -> [(type: UInt16, value: [UInt8])] {
            var attributes: [(UInt16, [UInt8])] = []
            var offset = start
            while offset + 4 <= bytes.count {
                let length = Int(bytes.uint16(at: offset))
                guard length >= 4, offset + length <= bytes.count else { break }
                attributes.append((bytes.uint16(at: offset + 2), Array(bytes[(offset + 4)..<(offset + length)])))
                offset += (length + 3) & ~3
            }
            return attributes
        }
    }

    // Netlink is in host byte order.
    extension [UInt8] {
        fileprivate func uint16(at offset: Int) -> UInt16 {
            UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
        }

        fileprivate func uint32(at offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
        }

        fileprivate func int32(at offset: Int) -> Int32 {
            Int32(bitPattern: uint32(at: offset))
        }

        fileprivate mutating func store<Value: FixedWidthInteger>(at offset: Int, with value: Value) {
            for index in 0..<(Value.bitWidth / 8) {
                self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
            }
        }
    }
#endif
