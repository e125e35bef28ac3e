import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A large blob upload that stops midway resumes from the server's offset with the saved location.
@Suite("Resumed blob uploads")
struct ResumedBlobUploadTests {
    static let blobSize = 16 << 20

    @Test(
        "A resumed upload sends only what the server lacks (injected reader fault)", arguments: TransportKind.allCases)
    func aResumedUploadSendsOnlyTheRest(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: Self.blobSize)
            let saved = SavedLocations()
            let failurePoint = file.size * 6 / 10

            await #expect(throws: InjectedReaderFault.self) {
                try await client.uploadBlob(
                    sha256: file.sha256, body: file.body(failingAt: failurePoint), resumeAt: nil,
                    saveLocation: { saved.save($0) })
            }
            let location = try #require(saved.all.first)
            let serverOffset = try await Self.settledOffset(of: location, client: client)
            let resumedCounter = ByteCounter()
            try await client.uploadBlob(
                sha256: file.sha256, body: file.body(counting: resumedCounter), resumeAt: location,
                saveLocation: { saved.save($0) })

            #expect(saved.all == [location])
            #expect(resumedCounter.value <= file.size * 45 / 100)
            #expect(resumedCounter.value == file.size - serverOffset)
            let (_, downloaded) = try await fixture.client(.curl).downloadedBytes(sha256: file.sha256)
            #expect(BlobFile.sha256(downloaded) == file.sha256)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anUploadCutByADroppedConnectionResumesFromTheServersOffset(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            // 32 Mbit/s: the 16 MiB take about 4 s, so the link is cut well before the end.
            let proxy = try await fixture.proxy(bitsPerSecond: 32_000_000)
            let slowClient = try fixture.client(kind, url: proxy.url)
            let file = try fixture.randomFile(count: Self.blobSize)
            let saved = SavedLocations()
            let upload = Task {
                try await slowClient.uploadBlob(
                    sha256: file.sha256, body: file.body(), resumeAt: nil, saveLocation: { saved.save($0) })
            }
            let started = ContinuousClock.now
            while saved.all.isEmpty, ContinuousClock.now - started < .seconds(30) {
                try await Task.sleep(for: .milliseconds(50))
            }
            // About a third of the bytes cross the link meanwhile.
            try await Task.sleep(for: .milliseconds(1500))

            try await proxy.close()
            let outcome = await upload.result

            #expect(throws: TransportError.self) { try outcome.get() }
            let location = try #require(saved.all.first)
            let client = try fixture.client(kind)
            let serverOffset = try await Self.settledOffset(of: location, client: client)
            #expect(serverOffset > 0)
            let resumedCounter = ByteCounter()
            try await client.uploadBlob(
                sha256: file.sha256, body: file.body(counting: resumedCounter), resumeAt: location,
                saveLocation: { saved.save($0) })
            #expect(resumedCounter.value == file.size - serverOffset)
            let (_, downloaded) = try await fixture.client(.curl).downloadedBytes(sha256: file.sha256)
            #expect(BlobFile.sha256(downloaded) == file.sha256)
        }
    }

    /// The server's offset of the upload at `location` once it stopped growing: the server may still be
    /// appending what reached it before the connection ended.
    private static func settledOffset(of location: String, client: SyncClient) async throws -> Int64 {
        var previous = try await offset(of: location, client: client)
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(15) {
            try await Task.sleep(for: .milliseconds(500))
            let current = try await offset(of: location, client: client)
            if current == previous { break }
            previous = current
        }
        return previous
    }

    /// The server's offset of the upload at `location`.
    private static func offset(of location: String, client: SyncClient) async throws -> Int64 {
        var request = TransportRequest(method: .head, url: try client.blobUploadURL(location))
        request.headers["Upload-Draft-Interop-Version"] = "6"
        let head = try await client.send(request)
        return try #require(head.headers["Upload-Offset"].flatMap { Int64($0) })
    }
}
