import Foundation
@_spi(SyncTablesTools) import SyncTablesCore
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Uploading blobs to a real `sync-server`: plain `PUT`s (bodies under the threshold) and resumable uploads
/// (threshold 0), over each transport.
@Suite("Blob uploads")
struct BlobUploadTests {
    /// Each transport, sending as one plain PUT (the default threshold) and as a resumable upload (threshold 0).
    static let shapes: [(TransportKind, Int64)] = TransportKind.allCases.flatMap {
        kind -> [(TransportKind, Int64)] in
        [(kind, SyncClient.defaultResumableUploadThreshold), (kind, Int64(0))]
    }

    @Test(arguments: shapes)
    func anUploadedBlobExistsAfterwards(kind: TransportKind, threshold: Int64) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 100_000)
            #expect(try await client.blobExists(sha256: file.sha256) == false)

            try await client.uploadBlob(
                sha256: file.sha256, body: file.body(), resumeAt: nil, resumableAbove: threshold,
                saveLocation: { _ in })

            #expect(try await client.blobExists(sha256: file.sha256))
            let (_, downloaded) = try await client.downloadedBytes(sha256: file.sha256)
            #expect(BlobFile.sha256(downloaded) == file.sha256)
        }
    }

    @Test(arguments: shapes)
    func uploadingABlobTheServerHoldsAlreadySucceeds(kind: TransportKind, threshold: Int64) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 50_000)
            try await client.uploadBlob(sha256: file.sha256, body: file.body(), resumeAt: nil, saveLocation: { _ in })

            try await client.uploadBlob(
                sha256: file.sha256, body: file.body(), resumeAt: nil, resumableAbove: threshold,
                saveLocation: { _ in })

            #expect(try await client.blobExists(sha256: file.sha256))
        }
    }

    @Test(arguments: shapes)
    func bytesThatDoNotHashToTheNameFailWithAHashMismatchAndStoreNothing(
        kind: TransportKind, threshold: Int64
    ) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 40_000)
            let otherName = BlobFile.sha256(Array(file.bytes.reversed()))

            let error = await #expect(throws: BlobError.self) {
                try await client.uploadBlob(
                    sha256: otherName, body: file.body(), resumeAt: nil, resumableAbove: threshold,
                    saveLocation: { _ in })
            }

            guard case .hashMismatch(let name, _)? = error else {
                Issue.record("expected a hash mismatch, got \(String(describing: error))")
                return
            }
            #expect(name == otherName)
            #expect(try await client.blobExists(sha256: otherName) == false)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBlobLargerThanTheServerTakesFailsAsTooLargeWithTheLimit(kind: TransportKind) async throws {
        try await BlobServerFixture.with(maxBlobBytes: 10_000) { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 20_000)

            let error = await #expect(throws: BlobError.self) {
                try await client.uploadBlob(
                    sha256: file.sha256, body: file.body(), resumeAt: nil, saveLocation: { _ in })
            }

            #expect(error == .tooLarge(sha256: file.sha256, maxBytes: 10_000))
            #expect(try await client.blobExists(sha256: file.sha256) == false)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anUnknownUploadLocationStartsANewUploadAndSucceeds(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 300_000)
            let saved = SavedLocations()
            let unknown = "/sync/blobs/uploads/expired0000000000000000"

            try await client.uploadBlob(
                sha256: file.sha256, body: file.body(), resumeAt: unknown, resumableAbove: 0,
                saveLocation: { saved.save($0) })

            #expect(saved.all.count == 1)
            #expect(saved.all.first != unknown)
            #expect(try await client.blobExists(sha256: file.sha256))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aResumableUploadSavesItsLocationBeforeSendingAnyByte(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            let client = try fixture.client(kind)
            let file = try fixture.randomFile(count: 200_000)
            let counter = ByteCounter()
            let readBeforeSaving = LockedState<Int64>(-1)

            try await client.uploadBlob(
                sha256: file.sha256, body: file.body(counting: counter), resumeAt: nil, resumableAbove: 0,
                saveLocation: { _ in readBeforeSaving.withLock { $0 = counter.value } })

            #expect(readBeforeSaving.withLock { $0 } == 0)
            #expect(counter.value == file.size)
        }
    }
}
