import Foundation
@_spi(SyncTablesTools) import SyncTables

// The blob bookkeeping on SQLite (see `SQLiteBlobTables`): the store's single writer runs each step alone.

extension SQLiteTableStorage {
    func recordUpload(of blob: BlobHash, by uploader: String, at time: Date) async throws {
        try await store.write { tx in try SQLiteBlobTables.recordUpload(of: blob, by: uploader, at: time, in: tx) }
    }

    func mayRead(_ blob: BlobHash, uploader: String, scopes: [BlobReadScope]) async throws -> Bool {
        try await store.write { tx in try SQLiteBlobTables.mayRead(blob, uploader: uploader, scopes: scopes, in: tx) }
    }

    func forgetUnreferencedBlobs(uploadedBefore cutoff: Date, limit: Int) async throws -> [BlobHash] {
        let now = blobReferencing.clock.now()
        return try await store.write { tx in
            try SQLiteBlobTables.forgetUnreferenced(before: cutoff, now: now, limit: limit, in: tx)
        }
    }
}
