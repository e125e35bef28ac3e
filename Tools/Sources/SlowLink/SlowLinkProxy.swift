import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 that forwards to a server over a simulated slow link: every byte is delayed by
/// the one-way delay in each direction and, with a capacity, queued behind the bytes before it.
///
/// This machine's kernel has no `netem`, so tests and `sync-bench` put this proxy between a client and a
/// real `sync-server` to see sync at real-world latency. It can also cut a connection in the middle of a
/// response (``dropResponse(toRequestContaining:afterBytes:)``), as a mobile network does.
///
/// ```swift
/// let proxy = try await SlowLinkProxy(upstreamPort: serverPort, link: .init(roundTrip: .milliseconds(50)))
/// let client = SyncClient(url: proxy.url)
/// // …
/// try await proxy.close()
/// ```
public final class SlowLinkProxy: Sendable {
    /// The port the proxy listens on.
    public let port: Int
    /// The link it simulates.
    public let link: SlowLinkConfiguration

    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let faults: DropRules

    /// Starts a proxy on an ephemeral 127.0.0.1 port forwarding to `upstreamHost:upstreamPort`.
    public init(upstreamHost: String = "127.0.0.1", upstreamPort: Int, link: SlowLinkConfiguration) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let faults = DropRules()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: upstreamHost, port: upstreamPort)
                    .flatMapThrowing { outbound in
                        let connection = ProxiedConnection(client: inbound, server: outbound)
                        try inbound.pipeline.syncOperations.addHandler(
                            DelayingForwarder(
                                peer: outbound, direction: .request, link: link, connection: connection,
                                faults: faults))
                        try outbound.pipeline.syncOperations.addHandler(
                            DelayingForwarder(
                                peer: inbound, direction: .response, link: link, connection: connection,
                                faults: faults))
                        try inbound.syncOptions?.setOption(.autoRead, value: true)
                    }
            }
        do {
            listener = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        guard let port = listener.localAddress?.port else {
            try? await group.shutdownGracefully()
            throw SlowLinkError.notListening
        }
        self.port = port
        self.link = link
        self.group = group
        self.faults = faults
    }

    /// `http://127.0.0.1:<port>`, the base URL clients use instead of the server's.
    public var url: URL {
        var components = URLComponents()
        (components.scheme, components.host, components.port) = ("http", "127.0.0.1", port)
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Cuts the next connection whose request bytes contain `marker` (say `"POST /sync/batch"`) after
    /// `afterBytes` bytes of its response reached the client: the server did the work, the client sees the
    /// connection end mid-response.
    public func dropResponse(toRequestContaining marker: String, afterBytes: Int) {
        faults.add(DropRule(marker: Array(marker.utf8), afterBytes: afterBytes))
    }

    /// How many connections a drop rule has cut so far.
    public var droppedConnections: Int { faults.fired }

    /// Stops listening and closes every connection.
    public func close() async throws {
        try? await listener.close()
        try await group.shutdownGracefully()
    }
}

/// Why a proxy could not start.
public enum SlowLinkError: Error, Sendable {
    /// The listening socket has no port.
    case notListening
}

/// A one-shot fault: cut the response of the next request containing `marker` after `afterBytes` bytes.
struct DropRule: Sendable {
    let marker: [UInt8]
    let afterBytes: Int
}

/// The proxy's pending drop rules, shared by every connection.
final class DropRules: Sendable {
    private let state = NIOLockedValueBox<(rules: [DropRule], fired: Int)>(([], 0))

    func add(_ rule: DropRule) {
        state.withLockedValue { $0.rules.append(rule) }
    }

    var fired: Int { state.withLockedValue { $0.fired } }

    var isEmpty: Bool { state.withLockedValue { $0.rules.isEmpty } }

    /// Takes the first rule whose marker these request bytes contain.
    func take(matching bytes: ByteBuffer) -> DropRule? {
        state.withLockedValue { state in
            let view = Array(bytes.readableBytesView)
            guard let index = state.rules.firstIndex(where: { Self.contains(view, $0.marker) }) else { return nil }
            state.fired += 1
            return state.rules.remove(at: index)
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}
