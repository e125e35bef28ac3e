import Foundation
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer
import SyncTablesServerTesting

/// An in-process `SyncServer` on 127.0.0.1 with a file-backed store in a temporary directory.
struct ServerHarness {
    let server: SyncServer
    let store: SQLiteStore
    let baseURL: URL
    let directory: TemporaryDirectory
    let pageSize: Int
    let maxTop: Int

    static func start(pageSize: Int, maxTop: Int, maxBatchOperations: Int = 100, maxChangeFeeds: Int? = nil)
        async throws -> ServerHarness
    {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("server.sqlite"))
        var configuration = SyncServerConfiguration(
            storage: .store(store), pageSize: pageSize, maxTop: maxTop, maxBatchOperations: maxBatchOperations
        ).withTestControls()
        if let maxChangeFeeds {
            configuration.maxChangeFeeds = maxChangeFeeds
            configuration.connectionLimits.maxConnections = max(
                configuration.connectionLimits.maxConnections, 2 * maxChangeFeeds)
        }
        let server = try await SyncServer(configuration: configuration)
        try await server.start()
        guard let url = server.url else { throw BenchError.unexpected("the server did not report its URL") }
        return ServerHarness(
            server: server, store: store, baseURL: url, directory: directory, pageSize: pageSize, maxTop: maxTop)
    }

    /// Seeds `count` items into `table` through the server's test controls, in chunks.
    func seed(table: String, count: Int, runTag: String) async throws {
        guard let controls = server.testControls else { throw BenchError.unexpected("test controls are off") }
        var start = 0
        while start < count {
            let end = min(count, start + 5_000)
            let items = try (start..<end).map { try BenchTodo.make($0, runTag: runTag).jsonObject() }
            try await controls.seed(table: table, items: items)
            start = end
        }
    }

    /// A second server on the same store that does not advertise keyset pulls, so clients pull from it with
    /// `updatedAt ge` and `$skip` (see the *Wire protocol* article of SyncTables, section *Incremental pull*).
    /// Stopped by the caller.
    func startSiblingWithoutKeysets() async throws -> (server: SyncServer, url: URL) {
        let sibling = try await SyncServer(
            configuration: SyncServerConfiguration(
                storage: .store(store), pageSize: pageSize, maxTop: maxTop, advertisesKeysetPull: false))
        try await sibling.start()
        guard let url = sibling.url else { throw BenchError.unexpected("the server did not report its URL") }
        return (sibling, url)
    }

    /// A second server on the same store that never compresses its responses. Stopped by the caller.
    func startSiblingWithoutCompression() async throws -> (server: SyncServer, url: URL) {
        var configuration = SyncServerConfiguration(storage: .store(store), pageSize: pageSize, maxTop: maxTop)
        configuration.responseCompression = .off
        let sibling = try await SyncServer(configuration: configuration)
        try await sibling.start()
        guard let url = sibling.url else { throw BenchError.unexpected("the server did not report its URL") }
        return (sibling, url)
    }

    func url(_ pathAndQuery: String) throws -> URL {
        guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else {
            throw BenchError.unexpected("bad URL \(pathAndQuery)")
        }
        return url
    }

    func stop() async throws {
        try await server.stop()
        try await store.close()
        directory.remove()
    }
}

/// Sends requests through a `SyncClient` (which adds the protocol headers) and records latencies.
struct TimedRequests {
    let client: SyncClient

    /// Sends every request in order; returns elapsed seconds and the latency histogram.
    func run(_ requests: [TransportRequest], expecting status: Int) async throws -> (Double, LatencyRecorder) {
        var latencies = LatencyRecorder()
        let start = Stopwatch.now()
        for request in requests {
            let sent = Stopwatch.now()
            let response = try await client.send(request)
            latencies.record(nanoseconds: Stopwatch.now() - sent)
            guard response.status == status else {
                throw BenchError.unexpected(
                    "\(request.method) \(request.url) answered \(response.status): "
                        + String(decoding: response.body.prefix(300), as: UTF8.self))
            }
        }
        return (Stopwatch.seconds(since: start), latencies)
    }
}
