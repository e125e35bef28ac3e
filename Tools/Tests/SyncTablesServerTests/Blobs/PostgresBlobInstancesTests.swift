import Foundation
import PostgresNIO
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Blobs kept in PostgreSQL (no blob directory) by two `sync-server` instances sharing one database: what one
/// stores the other serves byte for byte, whole and by range; a resumable upload moves from one to the other and
/// survives a restart; bytes that do not hash to their name leave nothing; two uploads of one blob at once keep
/// one copy; an append in progress on one instance makes a second one on the other busy.
///
/// Only on the PostgreSQL run (`SYNC_TEST_BACKEND=postgres`).
@Suite("Blobs in PostgreSQL across instances", .serialized)
struct PostgresBlobInstancesTests {
    /// Printable bytes (a raw socket sends them as text), 700 000 of them by default: three parts of 256 KiB,
    /// so ranges and resumed uploads cross part boundaries.
    private static func text(count: Int = 700_000, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(ascii: "a") + UInt8(($0 &* 7 &+ $0 / 97 &+ seed) % 26) }
    }

    private static let resumable = ["Upload-Draft-Interop-Version": "6", "Content-Type": "application/octet-stream"]

    /// Two servers on one fresh schema, both stopped (and the schema dropped) afterwards.
    private static func withTwoInstances(
        _ body: (ServerHarness, ServerHarness, PostgresStorage) async throws -> Void
    ) async throws {
        let database = try TestBackend.freshPostgresDatabase()
        do {
            try await withInstance(database) { first in
                try await withInstance(database) { second in try await body(first, second, database) }
            }
        } catch {
            try? await TestBackend.dropSchema(of: database)
            throw error
        }
        try await TestBackend.dropSchema(of: database)
    }

    private static func withInstance(
        _ database: PostgresStorage, _ body: (ServerHarness) async throws -> Void
    ) async throws {
        let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .postgres(database)))
        try await server.stopping {
            try await server.start()
            try await body(ServerHarness(server: server, port: try #require(server.port)))
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func aBlobStoredThroughOneInstanceIsServedWholeAndByRangeThroughTheOther() async throws {
        try await Self.withTwoInstances { first, second, _ in
            let bytes = Self.text()
            let path = BlobServer.path(of: bytes)

            let stored = try await first.send(.put, path, body: bytes)
            let head = try await second.send(.head, path, body: nil)
            let whole = try await second.send(.get, path, body: nil)
            let range = try await second.send(.get, path, body: nil, headers: ["Range": "bytes=200000-600000"])

            #expect(stored.status == 201, "\(stored.text)")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "700000")
            #expect(whole.status == 200)
            #expect(whole.body == bytes)
            #expect(range.status == 206)
            #expect(range.header("Content-Range") == "bytes 200000-600000/700000")
            #expect(range.body == Array(bytes[200_000...600_000]))
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func aResumableUploadCreatedOnOneInstanceIsContinuedAndCompletedOnTheOther() async throws {
        try await Self.withTwoInstances { first, second, database in
            let bytes = Self.text()
            let created = try await first.send(
                .put, BlobServer.path(of: bytes), body: Array(bytes[..<300_000]),
                headers: Self.resumable.merging(["Upload-Complete": "?0"]) { $1 })
            let location = try #require(created.header("Location"))

            let offset = try await second.send(.head, location, body: nil)
            let rest = try await second.send(
                .patch, location, body: Array(bytes[300_000...]),
                headers: ["Upload-Offset": "300000", "Upload-Complete": "?1"])
            let read = try await first.send(.get, BlobServer.path(of: bytes), body: nil)

            #expect(created.status == 201, "\(created.text)")
            #expect(offset.header("Upload-Offset") == "300000")
            #expect(rest.status == 201, "\(rest.text)")
            #expect(read.body == bytes)
            #expect(try await first.send(.head, location, body: nil).status == 404)
            #expect(try await PostgresBlobRows.count(PostgresBlobRows.uploads, in: database) == 0)
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func bytesThatDoNotHashToTheirNameAreRefusedAndNothingIsKeptPlainOrResumed() async throws {
        try await Self.withTwoInstances { first, second, database in
            let bytes = Self.text()
            var corrupted = bytes
            corrupted[400_000] ^= 1
            let path = BlobServer.path(of: bytes)

            let plain = try await first.send(.put, path, body: corrupted)
            let created = try await first.send(
                .put, path, body: Array(corrupted[..<300_000]),
                headers: Self.resumable.merging(["Upload-Complete": "?0"]) { $1 })
            let location = try #require(created.header("Location"))
            let completed = try await second.send(
                .patch, location, body: Array(corrupted[300_000...]),
                headers: ["Upload-Offset": "300000", "Upload-Complete": "?1"])

            #expect(plain.status == 422, "\(plain.text)")
            #expect(completed.status == 422, "\(completed.text)")
            #expect(try await second.send(.head, path, body: nil).status == 404)
            #expect(try await first.send(.head, location, body: nil).status == 404)
            #expect(try await PostgresBlobRows.all(in: database) == [])
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func twoInstancesStoringOneBlobAtOnceBothSucceedAndKeepOneCopy() async throws {
        try await Self.withTwoInstances { first, second, database in
            var attempts = 0
            for round in 0..<5 {
                let bytes = Self.text(seed: round)
                let path = BlobServer.path(of: bytes)
                attempts += 1

                async let throughFirst = first.send(.put, path, body: bytes)
                async let throughSecond = second.send(.put, path, body: bytes)
                let statuses = try await [throughFirst.status, throughSecond.status].sorted()

                #expect(statuses == [200, 201], "round \(round)")
                #expect(try await second.send(.get, path, body: nil).body == bytes, "round \(round)")
            }
            #expect(attempts == 5)
            #expect(try await PostgresBlobRows.count(PostgresBlobRows.blobs, in: database) == 5)
            // 700 000 bytes are three parts: one copy of each blob.
            #expect(try await PostgresBlobRows.count(PostgresBlobRows.parts, in: database) == 15)
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func anAppendOnOneInstanceMakesASecondOneOnTheOtherBusy() async throws {
        try await Self.withTwoInstances { first, second, database in
            let bytes = Self.text(count: 3000)
            let created = try await first.send(
                .put, BlobServer.path(of: bytes), body: Array(bytes[..<1000]),
                headers: Self.resumable.merging(["Upload-Complete": "?0"]) { $1 })
            let location = try #require(created.header("Location"))
            // The first append sends part of its body and waits, holding the upload.
            let slow = try RawConnection(port: first.port)
            try await slow.send(
                "PATCH \(location) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000\r\nUpload-Offset: 1000\r\n"
                    + "Upload-Complete: ?1\r\nContent-Type: application/partial-upload\r\nConnection: close\r\n\r\n"
                    + String(decoding: bytes[1000..<1100], as: UTF8.self))
            let deadline = ContinuousClock.now + .seconds(20)
            var holding = false
            while !holding, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                holding = try await PostgresBlobRows.anAppendHoldsItsUpload(in: database)
            }
            try #require(holding, "the first append never took the upload's lock")

            let busy = try await second.send(
                .patch, location, body: Array(bytes[1000...]),
                headers: ["Upload-Offset": "1000", "Upload-Complete": "?1"])
            try await slow.send(String(decoding: bytes[1100...], as: UTF8.self))
            let finished = try await slow.waitForClose(timeout: .seconds(30))

            #expect(busy.status == 409, "\(busy.text)")
            guard case .closed(let answer) = finished else {
                Issue.record("the first append did not finish")
                return
            }
            #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer.prefix(300))")
            #expect(try await second.send(.get, BlobServer.path(of: bytes), body: nil).body == bytes)
        }
    }

    @Test(.enabled(if: TestBackend.isPostgres))
    func aRestartKeepsAPartialUploadsOffsetAndItsBytes() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        defer { Task { try? await TestBackend.dropSchema(of: database) } }
        let bytes = Self.text()
        var location = ""
        try await Self.withInstance(database) { harness in
            let created = try await harness.send(
                .put, BlobServer.path(of: bytes), body: Array(bytes[..<300_000]),
                headers: Self.resumable.merging(["Upload-Complete": "?0"]) { $1 })
            location = try #require(created.header("Location"))
        }

        try await Self.withInstance(database) { harness in
            let offset = try await harness.send(.head, location, body: nil)
            let rest = try await harness.send(
                .patch, location, body: Array(bytes[300_000...]),
                headers: ["Upload-Offset": "300000", "Upload-Complete": "?1"])

            #expect(offset.header("Upload-Offset") == "300000")
            #expect(rest.status == 201, "\(rest.text)")
            #expect(try await harness.send(.get, BlobServer.path(of: bytes), body: nil).body == bytes)
        }
    }
}
