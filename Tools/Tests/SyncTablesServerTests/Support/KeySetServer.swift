import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
@_spi(SyncTablesTools) import SyncTablesCore
import Testing

/// A scripted identity provider: serves a key set at `http://127.0.0.1:<port>/jwks.json` and counts the fetches.
final class KeySetServer: Sendable {
    private struct State {
        var keySet = Data()
        var fetches = 0
    }

    private let state = LockedState(State())

    /// The key set served from now on.
    func publish(_ keySet: Data) { state.withLock { $0.keySet = keySet } }

    /// How many times the key set was fetched.
    var fetches: Int { state.withLock { $0.fetches } }

    /// Runs the provider on an ephemeral port for the duration of `body`, which gets the key set's URL.
    func run(_ body: (URL) async throws -> Void) async throws {
        let router = Router()
        router.get("jwks.json") { [state] _, _ -> Response in
            let data = state.withLock { state in
                state.fetches += 1
                return state.keySet
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        let port = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.continuation.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "jwks"))
        let group = ServiceGroup(services: [application], logger: Logger(label: "jwks"))
        let task = Task { try await group.run() }
        do {
            var ports = port.stream.makeAsyncIterator()
            let bound = try #require(await ports.next())
            try await body(try #require(URL(string: "http://127.0.0.1:\(bound)/jwks.json")))
        } catch {
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw error
        }
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
