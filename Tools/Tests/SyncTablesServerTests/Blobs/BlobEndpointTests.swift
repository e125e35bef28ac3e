import Crypto
import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// `/sync/blobs/<sha256>`: content-addressed uploads verified against their name, reads streamed whole or by
/// range, a size limit of their own (not the request body limit), never compressed.
@Suite("Blob endpoints")
struct BlobEndpointTests {
    @Test func theCapabilitiesDocumentAnnouncesTheBlobEndpointsAndTheirLimit() async throws {
        try await BlobServer.with({ $0.maxBlobBytes = 5000 }) { harness, _ in
            let document = try await harness.send(.get, "/sync/capabilities").object()
            #expect(document["blobs"] == .object(["path": .string("/sync/blobs"), "maxBytes": .integer(5000)]))
        }
    }

    @Test func aBlobIsMissingUntilUploadedThenStoredOnceWithItsSize() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = BlobServer.bytes(count: 10_000)
            let path = BlobServer.path(of: bytes)

            let before = try await harness.send(.head, path, body: nil)
            let created = try await harness.send(.put, path, body: bytes)
            let after = try await harness.send(.head, path, body: nil)
            let again = try await harness.send(.put, path, body: bytes)

            #expect(before.status == 404)
            #expect(created.status == 201, "\(created.text)")
            #expect(try created.object()["size"] == .integer(10_000))
            #expect(after.status == 200)
            #expect(after.header("Content-Length") == "10000")
            #expect(after.header("ETag") == "\"\(BlobServer.hash(of: bytes))\"")
            #expect(again.status == 200)
        }
    }

    @Test func getReturnsTheStoredBytesUncompressed() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = Array(repeating: UInt8(ascii: "a"), count: 50_000)  // very compressible
            let path = BlobServer.path(of: bytes)
            _ = try await harness.send(.put, path, body: bytes)

            let read = try await harness.send(.get, path, body: nil, headers: ["Accept-Encoding": "gzip"])

            #expect(read.status == 200)
            #expect(read.body == bytes)
            #expect(read.header("Content-Encoding") == nil)
            #expect(read.header("Accept-Ranges") == "bytes")
        }
    }

    @Test func aRangeIsAnsweredWithPartialContent() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = BlobServer.bytes(count: 1000)
            let path = BlobServer.path(of: bytes)
            _ = try await harness.send(.put, path, body: bytes)

            let middle = try await harness.send(.get, path, body: nil, headers: ["Range": "bytes=100-199"])
            let tail = try await harness.send(.get, path, body: nil, headers: ["Range": "bytes=900-"])
            let suffix = try await harness.send(.get, path, body: nil, headers: ["Range": "bytes=-10"])
            let past = try await harness.send(.get, path, body: nil, headers: ["Range": "bytes=950-5000"])

            #expect(middle.status == 206)
            #expect(middle.body == Array(bytes[100...199]))
            #expect(middle.header("Content-Range") == "bytes 100-199/1000")
            #expect(tail.body == Array(bytes[900...]))
            #expect(suffix.body == Array(bytes[990...]))
            #expect(past.body == Array(bytes[950...]))
            #expect(past.header("Content-Range") == "bytes 950-999/1000")
        }
    }

    @Test func aRangeOutsideTheBlobIsNotSatisfiable() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = BlobServer.bytes(count: 1000)
            let path = BlobServer.path(of: bytes)
            _ = try await harness.send(.put, path, body: bytes)

            let outside = try await harness.send(.get, path, body: nil, headers: ["Range": "bytes=1000-1100"])

            #expect(outside.status == 416)
            #expect(outside.header("Content-Range") == "bytes */1000")
        }
    }

    @Test func bytesThatDoNotHashToTheirNameAreRefusedAndNothingIsKept() async throws {
        try await BlobServer.with { harness, directory in
            let bytes = BlobServer.bytes(count: 4096)
            let path = BlobServer.path(of: BlobServer.bytes(count: 4095))

            let upload = try await harness.send(.put, path, body: bytes)
            let head = try await harness.send(.head, path, body: nil)

            #expect(upload.status == 422)
            #expect(head.status == 404)
            #expect(try await BlobServer.leftovers(harness, directory).isEmpty)
        }
    }

    @Test func aNameThatIsNotLowercaseHexadecimalSHA256IsABadRequest() async throws {
        try await BlobServer.with { harness, _ in
            let upper = BlobServer.hash(of: [1, 2, 3]).uppercased()
            for name in [upper, "abc", String(repeating: "g", count: 64)] {
                let response = try await harness.send(.head, "/sync/blobs/\(name)", body: nil)
                #expect(response.status == 400, "\(name)")
            }
        }
    }

    @Test func aBlobOverTheLimitIsRefusedAndNothingIsKept() async throws {
        try await BlobServer.with({ $0.maxBlobBytes = 1000 }) { harness, directory in
            let bytes = BlobServer.bytes(count: 1001)
            let path = BlobServer.path(of: bytes)

            let upload = try await harness.send(.put, path, body: bytes)

            #expect(upload.status == 413)
            #expect(try await harness.send(.head, path, body: nil).status == 404)
            #expect(try await BlobServer.leftovers(harness, directory).isEmpty)
        }
    }

    @Test func aBlobLargerThanTheRequestBodyLimitIsAccepted() async throws {
        try await BlobServer.with({ $0.maxBodySize = 64 * 1024 }) { harness, _ in
            let bytes = BlobServer.bytes(count: 1024 * 1024)
            let path = BlobServer.path(of: bytes)

            let upload = try await harness.send(.put, path, body: bytes)
            let read = try await harness.send(.get, path, body: nil)

            #expect(upload.status == 201)
            #expect(read.body == bytes)
        }
    }

    @Test func otherMethodsAreNotAllowed() async throws {
        try await BlobServer.with { harness, _ in
            let response = try await harness.send(.delete, BlobServer.path(of: [1]), body: nil)
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD, PUT")
        }
    }

    @Test func aDeclaredTablesServerOffersBlobs() {
        var configuration = SyncServerConfiguration(storage: .inMemory)
        configuration.declaredTables = TableDeclarations(tables: [:])
        #expect(BlobSettings.capability(configuration) != nil)
    }
}

/// A harness whose blobs go to a fresh directory the test can look into, or, on the PostgreSQL run, into the
/// database (its test schema).
enum BlobServer {
    static func with(
        _ configure: (inout SyncServerConfiguration) -> Void = { _ in },
        _ body: (ServerHarness, URL) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("blobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ServerHarness.with({
            if !TestBackend.isPostgres { $0.blobDirectory = directory.path }
            configure(&$0)
        }) { harness in
            try await body(harness, directory)
        }
    }

    /// Bytes that differ from one position to the next.
    static func bytes(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    static func hash(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    static func path(of bytes: [UInt8]) -> String { "/sync/blobs/\(hash(of: bytes))" }

    /// What the harness's blob storage holds, uploads in progress included: the regular files under
    /// `directory`, or the rows of the blob relations in PostgreSQL.
    static func leftovers(_ harness: ServerHarness, _ directory: URL) async throws -> [String] {
        guard case .postgres(let database) = harness.server.configuration.storage else {
            return try files(in: directory)
        }
        return try await PostgresBlobRows.all(in: database)
    }

    /// The regular files under `directory`, uploads in progress included.
    static func files(in directory: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }.map(\.path)
    }
}

/// The body timeout of a blob upload counts from the last part that arrived, not from the head.
@Suite("Blob upload deadlines")
struct BlobUploadDeadlineTests {
    @Test func aSlowBlobUploadThatKeepsArrivingOutlivesTheBodyTimeout() async throws {
        try await BlobServer.with({
            // Each gap (1 s) stays far inside the timeout (8 s); all of them together (12 s) do not.
            $0.connectionLimits.requestBodyTimeout = .seconds(8)
        }) { harness, _ in
            let bytes = Array(String(repeating: "slow upload ", count: 100).utf8)
            let connection = try RawConnection(port: harness.port)
            try await connection.send(
                "PUT \(BlobServer.path(of: bytes)) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(bytes.count)\r\n"
                    + "Connection: close\r\n\r\n")
            // The parts go from a thread of their own: a test run that keeps the task pool busy would wake a
            // sleeping task seconds late (10 s was seen), turning a gap into a real timeout.
            let sending: Result<Duration, any Error> = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var longestGap = Duration.zero
                    var lastSend = ContinuousClock.now
                    do {
                        for start in stride(from: 0, to: bytes.count, by: 100) {
                            Thread.sleep(forTimeInterval: 1)
                            longestGap = max(longestGap, ContinuousClock.now - lastSend)
                            try connection.sendBlocking(Array(bytes[start..<min(start + 100, bytes.count)]))
                            lastSend = ContinuousClock.now
                        }
                        continuation.resume(returning: .success(longestGap))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
            let longestGap = try sending.get()

            let outcome = try await connection.waitForClose(timeout: .seconds(30))

            guard case .closed(let answer) = outcome else {
                Issue.record("no answer")
                return
            }
            #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer.prefix(200)); longest gap between parts: \(longestGap)")
        }
    }

    @Test func aBlobUploadThatStopsArrivingIsClosedAfterTheBodyTimeout() async throws {
        try await BlobServer.with({
            $0.connectionLimits.requestBodyTimeout = .milliseconds(500)
        }) { harness, _ in
            let connection = try RawConnection(port: harness.port)
            try await connection.send(
                "PUT \(BlobServer.path(of: [1])) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nabc")

            let outcome = try await connection.waitForClose(timeout: .seconds(10))

            #expect(outcome == .closed(received: ""))
        }
    }
}
