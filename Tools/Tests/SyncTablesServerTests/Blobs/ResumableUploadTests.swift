import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Resumable uploads (draft-ietf-httpbis-resumable-upload, interop version 6): an upload resource that keeps
/// what arrived, answers its offset, takes the rest from there, and verifies the whole at completion.
@Suite("Resumable blob uploads")
struct ResumableUploadTests {
    /// Printable bytes, so a raw socket can send them as text.
    private static func text(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(ascii: "a") + UInt8(($0 &* 7 &+ $0 / 97) % 26) }
    }

    private static func create(
        _ harness: ServerHarness, _ bytes: [UInt8], first: [UInt8] = [], complete: Bool = false
    ) async throws -> HTTPResult {
        try await harness.send(
            .put, BlobServer.path(of: bytes), body: first,
            headers: [
                "Upload-Complete": complete ? "?1" : "?0", "Upload-Draft-Interop-Version": "6",
                "Content-Type": "application/octet-stream",
            ])
    }

    private static func offset(_ harness: ServerHarness, _ location: String) async throws -> Int64? {
        let head = try await harness.send(.head, location, body: nil)
        return head.status == 204 ? head.header("Upload-Offset").flatMap { Int64($0) } : nil
    }

    @Test func anUploadCreatedIncompleteAnswersItsLocationAndOffset() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = Self.text(count: 1000)

            let created = try await Self.create(harness, bytes, first: Array(bytes[..<300]))

            #expect(created.status == 201)
            #expect(created.header("Upload-Complete") == "?0")
            #expect(created.header("Upload-Offset") == "300")
            #expect(created.header("Upload-Draft-Interop-Version") == "6")
            let location = try #require(created.header("Location"))
            #expect(location.hasPrefix("/sync/blobs/uploads/"))
            #expect(try await Self.offset(harness, location) == 300)
            #expect(try await harness.send(.head, BlobServer.path(of: bytes), body: nil).status == 404)
        }
    }

    @Test func appendingFromTheOffsetAndCompletingStoresTheBlob() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = Self.text(count: 5000)
            let created = try await Self.create(harness, bytes, first: Array(bytes[..<2000]))
            let location = try #require(created.header("Location"))

            let middle = try await harness.send(
                .patch, location, body: Array(bytes[2000..<4000]),
                headers: [
                    "Upload-Offset": "2000", "Upload-Complete": "?0", "Content-Type": "application/partial-upload",
                ])
            let last = try await harness.send(
                .patch, location, body: Array(bytes[4000...]),
                headers: [
                    "Upload-Offset": "4000", "Upload-Complete": "?1", "Content-Type": "application/partial-upload",
                ])

            #expect(middle.status == 204)
            #expect(middle.header("Upload-Offset") == "4000")
            #expect(last.status == 201, "\(last.text)")
            #expect(last.header("Upload-Complete") == "?1")
            #expect(try await harness.send(.get, BlobServer.path(of: bytes), body: nil).body == bytes)
            #expect(try await harness.send(.head, location, body: nil).status == 404)
        }
    }

    @Test func anAppendFromAnotherOffsetIsAConflictThatNamesTheRealOne() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = Self.text(count: 1000)
            let created = try await Self.create(harness, bytes, first: Array(bytes[..<100]))
            let location = try #require(created.header("Location"))

            let wrong = try await harness.send(
                .patch, location, body: Array(bytes[50...]), headers: ["Upload-Offset": "50", "Upload-Complete": "?1"])

            #expect(wrong.status == 409)
            #expect(wrong.header("Upload-Offset") == "100")
            #expect(try await Self.offset(harness, location) == 100)
        }
    }

    @Test func anUploadCutMidwayResumesFromTheBytesThatArrived() async throws {
        try await BlobServer.with { harness, _ in
            let bytes = Self.text(count: 200_000)
            let created = try await Self.create(harness, bytes)
            let location = try #require(created.header("Location"))

            // The connection drops after 60 % of a PATCH that announced the whole rest.
            let connection = try RawConnection(port: harness.port)
            try await connection.send(
                "PATCH \(location) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpload-Offset: 0\r\nUpload-Complete: ?1\r\n"
                    + "Upload-Draft-Interop-Version: 6\r\nContent-Length: \(bytes.count)\r\n\r\n"
                    + String(decoding: bytes[..<120_000], as: UTF8.self))
            try await Task.sleep(for: .milliseconds(200))
            connection.close()
            var offset: Int64?
            for _ in 0..<100 {
                offset = try await Self.offset(harness, location)
                if offset == 120_000 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(offset == 120_000)

            let rest = try await harness.send(
                .patch, location, body: Array(bytes[120_000...]),
                headers: ["Upload-Offset": "120000", "Upload-Complete": "?1"])

            #expect(rest.status == 201, "\(rest.text)")
            #expect(try await harness.send(.get, BlobServer.path(of: bytes), body: nil).body == bytes)
        }
    }

    @Test func anUploadSurvivesARestartOfTheServer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("blobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = Self.text(count: 3000)
        var location = ""
        try await ServerHarness.with({ $0.blobDirectory = directory.path }) { harness in
            let created = try await Self.create(harness, bytes, first: Array(bytes[..<1000]))
            location = try #require(created.header("Location"))
        }
        try await ServerHarness.with({ $0.blobDirectory = directory.path }) { harness in
            #expect(try await Self.offset(harness, location) == 1000)
            let rest = try await harness.send(
                .patch, location, body: Array(bytes[1000...]),
                headers: ["Upload-Offset": "1000", "Upload-Complete": "?1"])
            #expect(rest.status == 201)
        }
    }

    @Test func aStartRemovesPlainUploadsLeftUnwrittenForAnHourAndKeepsRecentOnes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("blobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let incoming = directory.appendingPathComponent("incoming")
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        let stale = incoming.appendingPathComponent("stale")
        let recent = incoming.appendingPathComponent("recent")
        try Data([1]).write(to: stale)
        try Data([2]).write(to: recent)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stale.path)

        try await ServerHarness.with({ $0.blobDirectory = directory.path }) { _ in }

        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: recent.path))
    }

    @Test func aCompletedUploadWhoseBytesHashElsewhereIsRefusedAndNothingIsKept() async throws {
        try await BlobServer.with { harness, directory in
            let bytes = Self.text(count: 1000)
            var corrupted = bytes
            corrupted[500] ^= 1
            let created = try await Self.create(harness, bytes, first: Array(corrupted[..<600]))
            let location = try #require(created.header("Location"))

            let last = try await harness.send(
                .patch, location, body: Array(corrupted[600...]),
                headers: ["Upload-Offset": "600", "Upload-Complete": "?1"])

            #expect(last.status == 422)
            #expect(try await harness.send(.head, BlobServer.path(of: bytes), body: nil).status == 404)
            #expect(try await harness.send(.head, location, body: nil).status == 404)
            #expect(try await BlobServer.leftovers(harness, directory).isEmpty)
        }
    }

    @Test func anUploadCanBeCancelled() async throws {
        try await BlobServer.with { harness, directory in
            let bytes = Self.text(count: 1000)
            let created = try await Self.create(harness, bytes, first: Array(bytes[..<10]))
            let location = try #require(created.header("Location"))

            let cancelled = try await harness.send(.delete, location, body: nil)

            #expect(cancelled.status == 204)
            #expect(try await harness.send(.head, location, body: nil).status == 404)
            #expect(try await BlobServer.leftovers(harness, directory).isEmpty)
        }
    }

    @Test func anUnfinishedUploadExpiresAfterTheRetention() async throws {
        let clock = ManualSyncClock()
        try await BlobServer.with({
            $0.clock = clock
            $0.blobRetention = .seconds(3600)
        }) { harness, directory in
            let bytes = Self.text(count: 1000)
            let created = try await Self.create(harness, bytes, first: Array(bytes[..<10]))
            let location = try #require(created.header("Location"))
            clock.advance(by: .seconds(1800))
            #expect(try await Self.offset(harness, location) == 10)

            clock.advance(by: .seconds(3600))
            let after = try await harness.send(.head, location, body: nil)

            #expect(after.status == 404)
            #expect(try await BlobServer.leftovers(harness, directory).isEmpty)
        }
    }

    @Test func anUploadOverTheLimitIsRefusedAndCancelled() async throws {
        try await BlobServer.with({ $0.maxBlobBytes = 1000 }) { harness, directory in
            let bytes = Self.text(count: 1500)
            let created = try await Self.create(harness, bytes, first: Array(bytes[..<800]))
            let location = try #require(created.header("Location"))

            let over = try await harness.send(
                .patch, location, body: Array(bytes[800...]),
                headers: ["Upload-Offset": "800", "Upload-Complete": "?1"])

            #expect(over.status == 413)
            #expect(try await BlobServer.leftovers(harness, directory).isEmpty)
        }
    }
}
