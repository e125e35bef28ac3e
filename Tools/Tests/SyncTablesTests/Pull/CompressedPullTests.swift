import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Pulls with gzip on the wire: the client asks for it on every transport, which decodes it, and the local
/// store ends exactly as after an uncompressed pull.
@Suite("Compressed pull")
struct CompressedPullTests {
    @Test(arguments: TransportKind.allCases)
    func compressedAndUncompressedPullsGiveIdenticalLocalStores(kind: TransportKind) async throws {
        let directory = try TemporaryDirectory()
        // Two servers on one store: one gzips its responses, the other never does.
        let serverStore = try SQLiteStore(path: directory.newDatabasePath())
        let compressing = try await SyncServer(
            configuration: SyncServerConfiguration(
                storage: .store(serverStore), pageSize: 100, softDelete: .allTables
            ).withTestControls())
        var plainConfiguration = SyncServerConfiguration(
            storage: .store(serverStore), pageSize: 100, softDelete: .allTables)
        plainConfiguration.responseCompression = .off
        let plain = try await SyncServer(configuration: plainConfiguration)
        try await compressing.start()
        try await compressing.stopping {
            try await plain.start()
            try await plain.stopping {
                let controls = try #require(compressing.testControls)
                _ = try await controls.seed(table: "TodoItem", items: Self.rows(count: 450))
                let compressingURL = try #require(compressing.url)
                try await SyncClient(url: compressingURL).delete(table: "TodoItem", id: "row-7", ifMatch: nil)

                let viaGzip = EncodingRecorder(next: try kind.make())
                let viaPlain = EncodingRecorder(next: try kind.make())
                let gzipped = try await Self.pullEverything(
                    url: compressingURL, transport: viaGzip, path: directory.newDatabasePath())
                let uncompressed = try await Self.pullEverything(
                    url: try #require(plain.url), transport: viaPlain, path: directory.newDatabasePath())

                // Every page (5 of 100 rows and the empty last one) came gzipped from one server only.
                #expect(viaGzip.encodings.filter { $0 == "gzip" }.count >= 5, "\(viaGzip.encodings)")
                #expect(viaPlain.encodings.allSatisfy { $0 == nil }, "\(viaPlain.encodings)")
                #expect(gzipped.count == 449)
                #expect(gzipped == uncompressed)
            }
        }
        try await serverStore.close()
    }

    /// Rows with text JSON must escape and characters beyond ASCII, so decoding has something to get wrong.
    private static func rows(count: Int) -> [JSONObject] {
        (0..<count).map { index in
            [
                "id": .string("row-\(index)"),
                "text": .string(
                    "row \(index): \"quoted\", tab\t, naïve café ☕️ \(String(repeating: "ü", count: index % 17))"),
                "complete": .bool(index.isMultiple(of: 3)),
            ]
        }
    }

    /// A new store pulled full from `url` (incrementally, as apps do); its rows, ordered by id.
    private static func pullEverything(url: URL, transport: any HTTPTransport, path: String) async throws
        -> [TodoItem]
    {
        let context = try await SyncContext(
            store: try SQLiteStore(path: path), client: SyncClient(url: url, transport: transport))
        let todos = try await context.table(TodoItem.self)
        try await todos.pull(queryId: "everything")
        let rows = try await todos.query().fetchAll().sorted { $0.id < $1.id }
        try await context.close()
        return rows
    }
}

/// Forwards to a real transport and notes each response's `Content-Encoding` (the body arrives decoded).
private final class EncodingRecorder: HTTPTransport, @unchecked Sendable {
    let next: any HTTPTransport
    // Guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [String?] = []

    init(next: any HTTPTransport) {
        self.next = next
    }

    var encodings: [String?] {
        lock.withLock { recorded }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await next.send(request)
        lock.withLock { recorded.append(response.headers["Content-Encoding"]) }
        return response
    }
}
