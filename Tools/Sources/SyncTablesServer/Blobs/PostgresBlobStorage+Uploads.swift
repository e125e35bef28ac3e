import Crypto
import Foundation
import Hummingbird
import NIOCore
import PostgresNIO

// Resumable uploads as rows: `__synctables_blob_uploads` holds what an upload is for and how many bytes it has
// (`received`), its parts are stored under its token. Every instance sees every upload, so a client may resume
// through any of them; an append holds the upload's row lock to its commit, so a second one at once is told
// the upload is busy instead of waiting.

extension PostgresBlobStorage {
    func createUpload(of blob: BlobHash, owner: String?, createdAt: Date) async throws -> String {
        let token = Self.newContentID()
        var binds = PostgresBindings()
        binds.append(token)
        binds.append(blob.hex)
        binds.append(owner)
        binds.append(createdAt.millisecondsSince1970)
        _ = try await PostgresTableStorage.describingErrors {
            try await client.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO \(uploads) (token, blob, owner, created_ms) VALUES ($1, $2, $3, $4)",
                    binds: binds), logger: logger)
        }
        return token
    }

    func upload(_ token: String) async throws -> BlobUpload? {
        try await PostgresTableStorage.describingErrors {
            var binds = PostgresBindings()
            binds.append(token)
            let rows = try await client.query(
                PostgresQuery(
                    unsafeSQL: "SELECT blob, owner, created_ms, received FROM \(uploads) WHERE token = $1",
                    binds: binds), logger: logger)
            for try await (blob, owner, milliseconds, received) in rows.decode((String, String?, Int64, Int64).self) {
                guard let hash = BlobHash(blob) else { return nil }
                return BlobUpload(
                    blob: hash, owner: owner, createdAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                    offset: received)
            }
            return nil
        }
    }

    /// Locks the upload's row for the transaction and returns its blob and offset.
    ///
    /// - Throws: ``BlobStorageError/noSuchUpload`` when there is none, ``BlobStorageError/uploadBusy`` when
    ///   another transaction (on any instance) holds it.
    private func lockUpload(_ token: String, on connection: PostgresConnection) async throws -> (
        blob: BlobHash, offset: Int64
    ) {
        var binds = PostgresBindings()
        binds.append(token)
        do {
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "SELECT blob, received FROM \(uploads) WHERE token = $1 FOR UPDATE NOWAIT",
                    binds: binds), logger: logger)
            for try await (blob, received) in rows.decode((String, Int64).self) {
                guard let hash = BlobHash(blob) else { break }
                return (hash, received)
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.lockNotAvailable.raw {
            throw BlobStorageError.uploadBusy
        }
        throw BlobStorageError.noSuchUpload
    }

    func append(to token: String, at offset: Int64, from body: RequestBody, limit: Int64) async throws -> Int64 {
        let (size, failure) = try await PostgresTableStorage.describingErrors {
            try await client.transaction(logger: logger) { connection in
                let current = try await lockUpload(token, on: connection).offset
                guard current == offset else { throw BlobStorageError.offsetMismatch(current: current) }
                var writer = parts.writer(for: token, from: offset, on: connection)
                var failure: BlobStorageError?
                do {
                    try await body.forEachBuffer { buffer in
                        guard writer.size + Int64(buffer.readableBytes) <= limit else {
                            throw BlobStorageError.tooLarge(limit: limit)
                        }
                        try await writer.write(buffer)
                    }
                } catch let error as BlobStorageError {
                    failure = error
                }
                // What arrived before a failure is committed too, so the upload resumes after it.
                try await writer.flush()
                var binds = PostgresBindings()
                binds.append(writer.size)
                binds.append(token)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "UPDATE \(uploads) SET received = $1 WHERE token = $2", binds: binds),
                    logger: logger)
                return (writer.size, failure)
            }
        }
        if let failure { throw failure }
        return size
    }

    /// What completing an upload found.
    private enum Completion: Sendable {
        case stored(BlobStoreOutcome)
        case mismatch(expected: BlobHash, received: BlobHash)
    }

    func completeUpload(_ token: String) async throws -> BlobStoreOutcome {
        let completion = try await PostgresTableStorage.describingErrors {
            try await client.transaction(logger: logger) { connection -> Completion in
                let (blob, size) = try await lockUpload(token, on: connection)
                var hasher = SHA256()
                var position: Int64 = 0
                while position < size {
                    guard let bytes = try await parts.part(of: token, startingAt: position, on: connection) else {
                        throw PostgresStorageError.missingBlobBytes(blob.hex)
                    }
                    bytes.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                    position += Int64(bytes.readableBytes)
                }
                try await removeUploadRow(token, on: connection)
                let received = BlobHash(digest: hasher.finalize())
                guard received == blob else {
                    try await parts.remove([token], on: connection)
                    return .mismatch(expected: blob, received: received)
                }
                // The upload's parts become the blob's, unless the same bytes are stored already.
                guard try await record(blob, content: token, size: size, on: connection) else {
                    try await parts.remove([token], on: connection)
                    return .stored(.existed)
                }
                return .stored(.created)
            }
        }
        switch completion {
        case .stored(let outcome): return outcome
        case .mismatch(let expected, let received):
            throw BlobStorageError.hashMismatch(expected: expected, received: received)
        }
    }

    /// Deletes an upload's row; `false` when there was none.
    @discardableResult
    private func removeUploadRow(_ token: String, on connection: PostgresConnection) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(token)
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "DELETE FROM \(uploads) WHERE token = $1 RETURNING 1", binds: binds),
            logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func cancelUpload(_ token: String) async throws {
        try await PostgresTableStorage.describingErrors {
            try await client.transaction(logger: logger) { connection in
                // Only an upload's own parts: a completed upload's token names a stored blob's.
                guard try await removeUploadRow(token, on: connection) else { return }
                try await parts.remove([token], on: connection)
            }
        }
    }

    func removeUploads(createdBefore cutoff: Date, limit: Int) async throws -> Int {
        try await PostgresTableStorage.describingErrors {
            try await client.transaction(logger: logger) { connection in
                var binds = PostgresBindings()
                binds.append(cutoff.millisecondsSince1970)
                binds.append(Int64(limit))
                // Uploads being appended to now are left for a later step.
                let rows = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            DELETE FROM \(uploads) WHERE token IN (
                                SELECT token FROM \(uploads) WHERE created_ms < $1 ORDER BY created_ms LIMIT $2
                                FOR UPDATE SKIP LOCKED)
                            RETURNING token
                            """, binds: binds), logger: logger)
                var tokens: [String] = []
                for try await token in rows.decode(String.self) { tokens.append(token) }
                try await parts.remove(tokens, on: connection)
                return tokens.count
            }
        }
    }
}
