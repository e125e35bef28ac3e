import Foundation

/// A request body of known length that a transport pulls chunk by chunk while it sends, instead of holding it
/// in memory: a file region, or bytes that are decrypted as they go out.
///
/// A body is a recipe: each send makes a fresh ``UploadBodyReader`` (a retried request reads again), and
/// ``tail(from:)`` gives the part from an offset on, for a resumed upload that sends only what the server lacks.
///
/// ```swift
/// let body = UploadBody.file(fileURL, range: 0..<size)
/// let response = try await transport.upload(request, body: body.tail(from: serverOffset), progress: nil)
/// ```
public struct UploadBody: Sendable {
    /// How many bytes the body has; the reader must deliver exactly this many.
    public let length: Int64
    /// Where this body starts within the body it was cut from (0 unless made by ``tail(from:)``).
    public let startOffset: Int64
    private let openReader: @Sendable (_ offset: Int64) throws -> any UploadBodyReader

    /// A body of `length` bytes whose readers `openReader` makes; it is passed the offset to start reading at
    /// (0 for the whole body, more for a ``tail(from:)``).
    public init(length: Int64, openReader: @escaping @Sendable (_ offset: Int64) throws -> any UploadBodyReader) {
        self.init(length: length, startOffset: 0, openReader: openReader)
    }

    private init(
        length: Int64, startOffset: Int64,
        openReader: @escaping @Sendable (_ offset: Int64) throws -> any UploadBodyReader
    ) {
        self.length = length
        self.startOffset = startOffset
        self.openReader = openReader
    }

    /// Opens a reader positioned at the start of this body.
    ///
    /// - Throws: What opening the source throws (for a file, that it cannot be opened).
    public func makeReader() throws -> any UploadBodyReader {
        try openReader(startOffset)
    }

    /// The part of this body from `offset` (counted from this body's start) to its end.
    public func tail(from offset: Int64) -> UploadBody {
        let offset = Swift.min(Swift.max(0, offset), length)
        return UploadBody(length: length - offset, startOffset: startOffset + offset, openReader: openReader)
    }

    /// The bytes of `range` in the file at `url`, read in chunks as the transport asks for them.
    ///
    /// The file must hold at least `range.upperBound` bytes while it is sent.
    public static func file(_ url: URL, range: Range<Int64>) -> UploadBody {
        UploadBody(length: Int64(range.count)) { offset in
            try FileRegionReader(url: url, from: range.lowerBound + offset, to: range.upperBound)
        }
    }

    /// Bytes already in memory (small bodies, tests).
    public static func bytes(_ bytes: [UInt8]) -> UploadBody {
        UploadBody(length: Int64(bytes.count)) { offset in
            MemoryBodyReader(bytes: bytes, position: Int(offset))
        }
    }
}
