import Logging
import NIOCore
import PostgresNIO

/// The relation holding blob bytes: rows of `content` (a stored blob's or an unfinished upload's id), `start`
/// (the offset of the part's first byte) and `bytes` (at most ``partSize`` of them), so a blob is read and
/// written a part at a time, never whole.
struct PostgresBlobParts: Sendable {
    /// The most bytes one row holds: large enough that a 1 GiB blob is 4096 rows, small enough to hold in memory.
    static let partSize = 256 * 1024

    /// The quoted, schema-qualified relation.
    let relation: String
    let logger: Logger

    /// The part of `content` that holds the byte at `offset`, with its start; `nil` when there is none.
    func part(of content: String, containing offset: Int64, on client: PostgresClient) async throws -> (
        start: Int64, bytes: ByteBuffer
    )? {
        var binds = PostgresBindings()
        binds.append(content)
        binds.append(offset)
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT start, bytes FROM \(relation) WHERE content = $1 AND start <= $2
                    ORDER BY start DESC LIMIT 1
                    """, binds: binds), logger: logger)
        for try await (start, bytes) in rows.decode((Int64, ByteBuffer).self)
        where start + Int64(bytes.readableBytes) > offset {
            return (start, bytes)
        }
        return nil
    }

    /// The part of `content` that starts at `offset`, read in the transaction of `connection`.
    func part(of content: String, startingAt offset: Int64, on connection: PostgresConnection) async throws
        -> ByteBuffer?
    {
        var binds = PostgresBindings()
        binds.append(content)
        binds.append(offset)
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT bytes FROM \(relation) WHERE content = $1 AND start = $2", binds: binds),
            logger: logger)
        for try await bytes in rows.decode(ByteBuffer.self) { return bytes }
        return nil
    }

    /// Removes every part of the contents named.
    func remove(_ contents: [String], on connection: PostgresConnection) async throws {
        guard !contents.isEmpty else { return }
        var binds = PostgresBindings()
        binds.append(contents)
        try await connection.query(
            PostgresQuery(unsafeSQL: "DELETE FROM \(relation) WHERE content = ANY($1)", binds: binds), logger: logger)
    }

    /// A writer appending to `content` from byte `start` on, in the transaction of `connection`.
    func writer(for content: String, from start: Int64, on connection: PostgresConnection) -> Writer {
        Writer(parts: self, connection: connection, content: content, size: start)
    }

    /// Collects bytes into parts of ``PostgresBlobParts/partSize`` and inserts each as it fills.
    struct Writer {
        let parts: PostgresBlobParts
        let connection: PostgresConnection
        let content: String
        /// The content's size once the pending bytes are written.
        private(set) var size: Int64
        private var pending = ByteBuffer()

        init(parts: PostgresBlobParts, connection: PostgresConnection, content: String, size: Int64) {
            self.parts = parts
            self.connection = connection
            self.content = content
            self.size = size
        }

        /// Adds `buffer`, inserting every part it fills.
        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            while buffer.readableBytes > 0 {
                let room = PostgresBlobParts.partSize - pending.readableBytes
                if var slice = buffer.readSlice(length: min(room, buffer.readableBytes)) {
                    // Counted as it moves to `pending`, so a flush knows where the part starts.
                    size += Int64(slice.readableBytes)
                    pending.writeBuffer(&slice)
                }
                if pending.readableBytes == PostgresBlobParts.partSize { try await flush() }
            }
        }

        /// Inserts the bytes not written yet as the last part.
        mutating func flush() async throws {
            guard pending.readableBytes > 0 else { return }
            var binds = PostgresBindings()
            binds.append(content)
            binds.append(size - Int64(pending.readableBytes))
            binds.append(pending)
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO \(parts.relation) (content, start, bytes) VALUES ($1, $2, $3)",
                    binds: binds), logger: parts.logger)
            pending.clear()
        }
    }
}
