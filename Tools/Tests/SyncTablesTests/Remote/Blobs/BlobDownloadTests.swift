import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Downloading blobs from a real `sync-server`, whole or from an offset.
@Suite("Blob downloads")
struct BlobDownloadTests {
    @Test(arguments: TransportKind.allCases)
    func aDownloadFromAnOffsetReturnsExactlyTheTail(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 150_000)
            try await client.uploadBlob(sha256: file.sha256, body: file.body(), resumeAt: nil, saveLocation: { _ in })

            let (download, tail) = try await client.downloadedBytes(sha256: file.sha256, from: 60_000)

            #expect(download.totalSize == file.size)
            #expect(download.startOffset == 60_000)
            #expect(tail == Array(file.bytes[60_000...]))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aDownloadFromTheBlobsSizeIsFinishedAndEmpty(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 10_000)
            try await client.uploadBlob(sha256: file.sha256, body: file.body(), resumeAt: nil, saveLocation: { _ in })

            let (download, tail) = try await client.downloadedBytes(sha256: file.sha256, from: file.size)

            #expect(download.isFinished)
            #expect(download.totalSize == file.size)
            #expect(tail.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func downloadingAMissingBlobFailsAsNotFound(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let missing = BlobFile.sha256(Array("nobody uploaded this".utf8))

            let error = await #expect(throws: BlobError.self) {
                _ = try await client.downloadBlob(sha256: missing)
            }

            #expect(error == .notFound(sha256: missing))
        }
    }
}
