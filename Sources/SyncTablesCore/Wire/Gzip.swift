import CZlib

/// gzip (RFC 1952) for HTTP bodies: the client's batch bodies, the server's responses and the request
/// bodies it accepts compressed. zlib straight from the system, so the library needs no NIO for it.
///
/// ```swift
/// let body = Array(#"[{"id":"a"}]"#.utf8)
/// let compressed = Gzip.compress(body)!
/// try Gzip.decompress(compressed, limit: 1 << 20) == body  // true
/// ```
@_spi(SyncTablesTools) public enum Gzip {
    /// Why a gzip body was not decoded.
    @_spi(SyncTablesTools) public enum DecodingError: Error, Sendable, Hashable {
        /// It decodes to more than the limit of bytes.
        case tooLarge(limit: Int)
        /// It is not valid gzip data.
        case corrupt
    }

    /// zlib's window bits for a gzip wrapper (15-bit window, plus 16 for gzip instead of zlib framing).
    private static let gzipWindowBits: Int32 = 15 + 16
    /// Bytes decoded per `inflate` call.
    private static let chunkSize = 64 << 10

    /// `bytes` gzip-compressed, or `nil` if zlib failed (the caller then sends them as they are).
    @_spi(SyncTablesTools) public static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        let started = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzipWindowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // One call: the bound is the most a single Z_FINISH can write, wrapper included.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// `bytes` decoded, never holding more than `limit` bytes and one chunk in memory: a small body that
    /// would inflate past the limit (a "gzip bomb") stops with ``DecodingError/tooLarge(limit:)``.
    /// A stream cut short decodes to what it holds (the JSON reader then refuses the partial text).
    @_spi(SyncTablesTools) public static func decompress(_ bytes: [UInt8], limit: Int) throws(DecodingError) -> [UInt8]
    {
        guard !bytes.isEmpty else { throw .corrupt }
        var stream = z_stream()
        guard inflateInit2_(&stream, gzipWindowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw .corrupt }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let outcome: Result<Void, DecodingError> = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunkSize - Int(stream.avail_out)
                if output.count + produced > limit { return .failure(.tooLarge(limit: limit)) }
                output.append(contentsOf: chunk[..<produced])
                switch status {
                case Z_STREAM_END:
                    // zlib stops at the end of the stream; input left over means it was not one gzip stream.
                    return stream.avail_in == 0 ? .success(()) : .failure(.corrupt)
                case Z_OK where stream.avail_in > 0 || produced == chunkSize:
                    continue
                case Z_OK, Z_BUF_ERROR:
                    return .success(())  // the input ended before the stream did
                default:
                    return .failure(.corrupt)
                }
            }
        }
        try outcome.get()
        return output
    }
}
