import CompressNIO
import NIOCore

/// gzip (RFC 1952) for HTTP bodies: the client's batch bodies, the server's responses and the request
/// bodies it accepts compressed.
package enum Gzip {
    /// Why a gzip body was not decoded.
    package enum DecodingError: Error, Sendable, Hashable {
        /// It decodes to more than the limit of bytes.
        case tooLarge(limit: Int)
        /// It is not valid gzip data.
        case corrupt
    }

    /// `bytes` gzip-compressed, or `nil` if zlib failed (the caller then sends them as they are).
    package static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var buffer = ByteBuffer(bytes: bytes)
        return (try? compress(&buffer)).map { Array($0.readableBytesView) }
    }

    /// The readable bytes of `buffer` gzip-compressed (consuming them).
    package static func compress(_ buffer: inout ByteBuffer) throws -> ByteBuffer {
        try buffer.compress(with: ZlibAlgorithm.gzip)
    }

    /// `bytes` decoded, never holding more than about twice `limit` bytes in memory: a small body that
    /// would inflate past the limit (a "gzip bomb") stops with ``DecodingError/tooLarge(limit:)``.
    /// A stream cut short decodes to what it holds (the JSON reader then refuses the partial text).
    package static func decompress(_ bytes: [UInt8], limit: Int) throws(DecodingError) -> [UInt8] {
        guard !bytes.isEmpty else { throw .corrupt }
        var buffer = ByteBuffer(bytes: bytes)
        let decoded: ByteBuffer
        do {
            decoded = try buffer.decompress(with: ZlibAlgorithm.gzip, maxSize: limit + 1)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw .tooLarge(limit: limit)
        } catch {
            throw .corrupt
        }
        guard decoded.readableBytes <= limit else { throw .tooLarge(limit: limit) }
        // zlib stops at the end of the stream; input left over means the body was not one gzip stream.
        guard buffer.readableBytes == 0 else { throw .corrupt }
        return Array(decoded.readableBytesView)
    }
}
