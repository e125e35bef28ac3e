#if os(Linux)
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import Testing

    /// The Linux monitor against the real kernel: a network namespace of the test's own, with a veth pair
    /// whose link goes down and up (needs root and `ip` from iproute2, as in CI).
    @Suite("Network monitor: netlink in a network namespace", .enabled(if: NetworkNamespace.isAvailable))
    struct NetlinkNetworkMonitorTests {
        @Test func itFollowsALinkGoingDownAndUp() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let monitor = try await namespace.run { try NetlinkNetworkMonitor() }
            let changes = ReachabilityRecorder(monitor.reachability())

            try await changes.wait(for: .online)
            try namespace.ip("link", "set", "veth1", "down")
            try await changes.wait(for: .offline)
            try namespace.ip("link", "set", "veth1", "up")
            try await changes.wait(for: .online)
        }

        @Test func theEngineSendsNothingWhileTheLinkIsDownAndSyncsWhenItComesBack() async throws {
            let namespace = try NetworkNamespace()
            defer { namespace.remove() }
            let monitor = try await namespace.run { try NetlinkNetworkMonitor() }
            try await SyncHarness.with { harness in
                // The engine talks to the server on the host's loopback; only its monitor watches the namespace.
                let device = try await EngineDevice.make(harness, networkMonitor: monitor)
                try await device.startAndSettle()
                _ = try await harness.takeRequests()

                try namespace.ip("link", "set", "veth1", "down")
                try await device.waitForState { $0 == .offline }
                try await device.todos.insert(TodoItem(id: "a", text: "written offline"))
                #expect(await device.engine.syncNow().outcome == .skipped(.offline))
                #expect(try await harness.takeTableRequests().isEmpty)

                try namespace.ip("link", "set", "veth1", "up")
                try await eventually("the queue is pushed") { try await device.context.pendingOperationCount() == 0 }
                #expect(try await harness.serverItem("a") != nil)
                await device.engine.stop()
            }
        }
    }

    /// A network namespace with a veth pair (`veth0`, `veth1` with 10.231.0.2/24), both up, removed by
    /// ``remove()``.
    struct NetworkNamespace {
        let name = "synctables-\(UInt32.random(in: 0..<UInt32.max))"

        static var isAvailable: Bool {
            getuid() == 0 && FileManager.default.isExecutableFile(atPath: ipPath)
        }

        private static var ipPath: String {
            ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.fileExists(atPath: $0) }
                ?? "/usr/sbin/ip"
        }

        init() throws {
            try Self.run(["netns", "add", name])
            do {
                try ip("link", "add", "veth0", "type", "veth", "peer", "name", "veth1")
                try ip("address", "add", "10.231.0.2/24", "dev", "veth1")
                try ip("link", "set", "veth0", "up")
                try ip("link", "set", "veth1", "up")
            } catch {
                remove()
                throw error
            }
        }

        /// Runs `ip -n <namespace> arguments…`.
        func ip(_ arguments: String...) throws {
            try Self.run(["-n", name] + arguments)
        }

        func remove() {
            try? Self.run(["netns", "delete", name])
        }

        /// Runs `body` on a thread that joined the namespace (sockets it opens belong to the namespace).
        func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
            let path = "/var/run/netns/\(name)"
            return try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    continuation.resume(
                        with: Result {
                            try Self.join(path)
                            return try body()
                        })
                }
                thread.start()
            }
        }

        private static func join(_ path: String) throws {
            typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
            // setns(2) is not in the Glibc module map.
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "setns") else { throw NamespaceError("no setns") }
            let setNamespace = unsafeBitCast(symbol, to: SetNamespace.self)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw NamespaceError("cannot open \(path)") }
            defer { close(descriptor) }
            guard setNamespace(descriptor, 0x4000_0000 /* CLONE_NEWNET */) == 0 else {
                throw NamespaceError("setns failed: errno \(errno)")
            }
        }

        /// Runs `ip` to completion through posix_spawn: Foundation's `Process.run()` crashed at random here,
        /// reading past a buffer while it listed the open descriptors that other tests were changing.
        private static func run(_ arguments: [String]) throws {
            let argv = ([ipPath] + arguments).map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, ipPath, nil, nil, argv, environ)
            guard spawned == 0 else { throw NamespaceError("cannot run ip: errno \(spawned)") }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { throw NamespaceError("waitpid failed: errno \(errno)") }
            }
            guard status == 0 else {
                throw NamespaceError("ip \(arguments.joined(separator: " ")) exited with wait status \(status)")
            }
        }
    }

    struct NamespaceError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Collects a reachability stream.
    actor ReachabilityRecorder {
        private var latest: NetworkReachability?

        init(_ stream: AsyncStream<NetworkReachability>) {
            Task { await self.consume(stream) }
        }

        private func consume(_ stream: AsyncStream<NetworkReachability>) async {
            for await reachability in stream { latest = reachability }
        }

        /// Waits until the latest reported reachability is `wanted`, recording an issue after 20 s.
        func wait(for wanted: NetworkReachability) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while latest != wanted {
                guard ContinuousClock.now < deadline else {
                    Issue.record(
                        "the monitor never reported \(wanted); it reports \(latest.map { "\($0)" } ?? "nothing")")
                    return
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }
#endif
