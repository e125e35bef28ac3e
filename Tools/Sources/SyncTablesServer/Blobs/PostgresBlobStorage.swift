import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO

/// Blobs in the PostgreSQL database the tables live in, so every server instance sharing it serves every blob.
///
/// A blob's bytes are rows of `__synctables_blob_parts` (see ``PostgresBlobParts``), and `__synctables_blobs`
/// names the content each stored blob is. An upload writes its parts in one transaction that commits only when
/// the bytes hash to the blob's name: a blob appears whole or not at all, and a server killed mid-upload leaves
/// nothing behind. Two instances storing the same blob at once keep one copy (the second finds the first's
/// row and rolls its own parts back). Resumable uploads keep their parts under their token (see
/// `PostgresBlobStorage+Uploads`).
///
/// It uses the table storage's connection pool; closing that closes this.
struct PostgresBlobStorage: BlobStorage {
    let client: PostgresClient
    let logger: Logger
    /// Stored blobs: `hash`, `content` (the id their parts are stored under) and `size`.
    let blobs: String
    /// Unfinished resumable uploads: `token` (their parts' content id too), `blob`, `owner`, `created_ms`
    /// and `received` (the offset).
    let uploads: String
    let parts: PostgresBlobParts

    /// Creates the blob relations in `schema` when absent (under the schema's advisory lock, as the table
    /// storage creates its own) and returns the storage.
    static func open(client: PostgresClient, schema: String, logger: Logger) async throws -> PostgresBlobStorage {
        let qualified = { (name: String) in "\(PostgresSQL.identifier(schema)).\(PostgresSQL.identifier(name))" }
        let storage = PostgresBlobStorage(
            client: client, logger: logger, blobs: qualified("__synctables_blobs"),
            uploads: qualified("__synctables_blob_uploads"),
            parts: PostgresBlobParts(relation: qualified("__synctables_blob_parts"), logger: logger))
        try await PostgresTableStorage.describingErrors {
            try await client.transaction(logger: logger) { connection in
                try await PostgresTableStorage.lockSchemaChanges(schema, connection, logger)
                // Once they exist, leave them alone: even `CREATE INDEX IF NOT EXISTS` would wait for the appends
                // other instances have in progress.
                var binds = PostgresBindings()
                binds.append(storage.uploads)
                let existing = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT to_regclass($1) IS NOT NULL", binds: binds), logger: logger)
                for try await exists in existing.decode(Bool.self) where exists { return }
                for statement in storage.createRelations() {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
        }
        return storage
    }

    private func createRelations() -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(parts.relation) (
                content text COLLATE "C" NOT NULL,
                start bigint NOT NULL,
                bytes bytea NOT NULL,
                PRIMARY KEY (content, start))
            """,
            """
            CREATE TABLE IF NOT EXISTS \(blobs) (
                hash text COLLATE "C" PRIMARY KEY,
                content text COLLATE "C" NOT NULL,
                size bigint NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS \(uploads) (
                token text COLLATE "C" PRIMARY KEY,
                blob text COLLATE "C" NOT NULL,
                owner text,
                created_ms bigint NOT NULL,
                received bigint NOT NULL DEFAULT 0)
            """,
            // The sweeper removes the oldest uploads first.
            """
            CREATE INDEX IF NOT EXISTS \(PostgresSQL.identifier("__synctables_blob_uploads__created"))
            ON \(uploads) (created_ms)
            """,
        ]
    }

    /// A fresh id for a blob's or an upload's parts: 32 random lowercase hexadecimal digits.
    static func newContentID() -> String {
        BlobHash(digest: (0..<16).map { _ in UInt8.random(in: .min ... .max) }).hex
    }

    /// The content id and size of a stored blob.
    private func stored(_ blob: BlobHash) async throws -> (content: String, size: Int64)? {
        try await PostgresTableStorage.describingErrors {
            var binds = PostgresBindings()
            binds.append(blob.hex)
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: "SELECT content, size FROM \(blobs) WHERE hash = $1", binds: binds),
                logger: logger)
            for try await (content, size) in rows.decode((String, Int64).self) { return (content, size) }
            return nil
        }
    }

    func size(of blob: BlobHash) async throws -> Int64? {
        try await stored(blob)?.size
    }

    func store(_ blob: BlobHash, from body: RequestBody, limit: Int64) async throws -> BlobStoreOutcome {
        let content = Self.newContentID()
        do {
            return try await PostgresTableStorage.describingErrors {
                try await client.transaction(logger: logger) { connection in
                    var writer = parts.writer(for: content, from: 0, on: connection)
                    var hasher = SHA256()
                    try await body.forEachBuffer { buffer in
                        guard writer.size + Int64(buffer.readableBytes) <= limit else {
                            throw BlobStorageError.tooLarge(limit: limit)
                        }
                        buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                        try await writer.write(buffer)
                    }
                    try await writer.flush()
                    let received = BlobHash(digest: hasher.finalize())
                    // Thrown errors roll the parts back: nothing is kept.
                    guard received == blob else {
                        throw BlobStorageError.hashMismatch(expected: blob, received: received)
                    }
                    guard try await record(blob, content: content, size: writer.size, on: connection) else {
                        throw AlreadyStored()
                    }
                    return .created
                }
            }
        } catch is AlreadyStored {
            return .existed
        }
    }

    /// Another upload stored the same blob first; this one's parts are rolled back.
    private struct AlreadyStored: Error {}

    /// Records `content` as the bytes of `blob`; `false` when the blob is stored already (an upload of the same
    /// bytes on any instance committed first; a concurrent one is waited for).
    func record(_ blob: BlobHash, content: String, size: Int64, on connection: PostgresConnection) async throws
        -> Bool
    {
        var binds = PostgresBindings()
        binds.append(blob.hex)
        binds.append(content)
        binds.append(size)
        let rows = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(blobs) (hash, content, size) VALUES ($1, $2, $3)
                    ON CONFLICT (hash) DO NOTHING RETURNING 1
                    """, binds: binds), logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func contents(of blob: BlobHash, range: ClosedRange<Int64>) async throws -> ResponseBody? {
        guard let (content, _) = try await stored(blob) else { return nil }
        let client = client
        let parts = parts
        return ResponseBody(contentLength: Int(range.upperBound - range.lowerBound + 1)) { writer in
            // One part at a time, each on a pooled connection only while it is read.
            var position = range.lowerBound
            while position <= range.upperBound {
                guard let (start, bytes) = try await parts.part(of: content, containing: position, on: client) else {
                    throw PostgresStorageError.missingBlobBytes(blob.hex)
                }
                let end = min(range.upperBound + 1, start + Int64(bytes.readableBytes))
                if let slice = bytes.getSlice(
                    at: bytes.readerIndex + Int(position - start), length: Int(end - position))
                {
                    try await writer.write(slice)
                }
                position = end
            }
            try await writer.finish(nil)
        }
    }

    func remove(_ blob: BlobHash) async throws {
        try await PostgresTableStorage.describingErrors {
            try await client.transaction(logger: logger) { connection in
                var binds = PostgresBindings()
                binds.append(blob.hex)
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(blobs) WHERE hash = $1 RETURNING content", binds: binds),
                    logger: logger)
                var contents: [String] = []
                for try await content in rows.decode(String.self) { contents.append(content) }
                try await parts.remove(contents, on: connection)
            }
        }
    }

    /// Nothing to do: the table storage owns the connection pool.
    func close() async throws {}
}
