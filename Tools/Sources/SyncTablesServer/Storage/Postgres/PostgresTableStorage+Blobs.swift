import Foundation
import PostgresNIO
@_spi(SyncTablesTools) import SyncTablesCore

// The blob bookkeeping on PostgreSQL (see `PostgresStatements+Blobs`).

extension PostgresTableStorage {
    func recordUpload(of blob: BlobHash, by uploader: String, at time: Date) async throws {
        try await Self.describingErrors {
            let statement = statements.recordUpload(of: blob, by: uploader, at: time.millisecondsSince1970)
            for try await _ in try await client.query(statement, logger: logger) {}
        }
    }

    func mayRead(_ blob: BlobHash, uploader: String, scopes: [BlobReadScope]) async throws -> Bool {
        try await Self.describingErrors {
            let rows = try await client.query(
                statements.mayRead(blob, uploader: uploader, scopes: scopes), logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    func forgetUnreferencedBlobs(uploadedBefore cutoff: Date, limit: Int) async throws -> [BlobHash] {
        try await Self.describingErrors {
            let statement = statements.forgetUnreferencedBlobs(
                before: cutoff.millisecondsSince1970, now: blobReferencing.clock.now().millisecondsSince1970,
                limit: limit)
            var forgotten: [BlobHash] = []
            for try await row in try await client.query(statement, logger: logger) {
                if let blob = BlobHash(try row.decode(String.self)) { forgotten.append(blob) }
            }
            return forgotten
        }
    }

    /// Replaces the references of one row with those of the row as written (`nil`: removed), in the write's
    /// transaction; a blob the write newly references must still be known.
    func replaceReferences(
        table: String, id: String, existing: JSONObject?, written: JSONObject?, _ connection: PostgresConnection
    ) async throws {
        guard blobReferencing.indexes(table) else { return }
        let now = blobReferencing.clock.now().millisecondsSince1970
        for added in blobReferencing.added(from: existing, to: written, table: table) {
            var known = false
            for try await _ in try await connection.query(statements.keepBlob(added.blob, at: now), logger: logger) {
                known = true
            }
            guard known else { throw BlobReferencing.notStored(added, table: table) }
        }
        for try await _ in try await connection.query(statements.removeReferences(table: table, id: id), logger: logger)
        {}
        for reference in blobReferencing.references(of: written, table: table) {
            let statement = statements.addReference(reference, table: table, id: id)
            for try await _ in try await connection.query(statement, logger: logger) {}
        }
    }
}
