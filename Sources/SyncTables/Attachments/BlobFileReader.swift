import Foundation

/// Reads a blob file's plain bytes from an offset on, a chunk at a time: plain, or opening the sealed chunks
/// of an encrypted store (``BlobSealing``). A damaged sealed chunk throws ``AttachmentError/damaged(sha256:)``.
///
/// Used from one task (or one transfer thread) at a time.
final class BlobFileReader: @unchecked Sendable {
    // @unchecked: a transfer hands the reader to the thread that sends the body, and only that thread reads.
    private let handle: FileHandle
    private let sealing: BlobSealing?
    private let sha256: String
    /// The blob's plain size.
    let size: Int64
    /// The plain offset of the next byte ``read(upTo:)`` returns.
    private(set) var offset: Int64
    /// Plain bytes of the current chunk not returned yet.
    private var buffered = Data()

    /// Whether every chunk is a full one sealed as not the last (the kept part of a partial download).
    private let allChunksFull: Bool

    /// Opens the blob file at `url` of a blob of `size` plain bytes, reading from `offset` on.
    init(
        url: URL, sha256: String, size: Int64, sealing: BlobSealing?, offset: Int64 = 0, allChunksFull: Bool = false
    ) throws {
        self.allChunksFull = allChunksFull
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw AttachmentError.notOnDevice(sha256: sha256)
        }
        self.sealing = sealing
        self.sha256 = sha256
        self.size = size
        self.offset = min(max(0, offset), size)
        if sealing == nil {
            try handle.seek(toOffset: UInt64(self.offset))
        } else if self.offset < size {
            let chunk = self.offset / Int64(BlobSealing.chunkSize)
            try handle.seek(toOffset: UInt64(chunk * Int64(BlobSealing.sealedChunkSize)))
            buffered = try readSealedChunk(UInt64(chunk))
            buffered.removeFirst(Int(self.offset - chunk * Int64(BlobSealing.chunkSize)))
        }
    }

    deinit {
        try? handle.close()
    }

    /// Up to `count` plain bytes; empty at the end of the blob.
    func read(upTo count: Int) throws -> Data {
        guard offset < size, count > 0 else { return Data() }
        let bytes: Data
        if sealing == nil {
            bytes = try handle.read(upToCount: Int(min(Int64(count), size - offset))) ?? Data()
            guard !bytes.isEmpty else {
                throw AttachmentError.sizeMismatch(sha256: sha256, expected: size, actual: offset)
            }
        } else {
            if buffered.isEmpty {
                buffered = try readSealedChunk(UInt64(offset / Int64(BlobSealing.chunkSize)))
            }
            bytes = buffered.prefix(count)
            buffered.removeFirst(bytes.count)
        }
        offset += Int64(bytes.count)
        return bytes
    }

    private func readSealedChunk(_ index: UInt64) throws -> Data {
        guard let sealing else { return Data() }
        let isLast = !allChunksFull && Int64(index) == BlobSealing.chunkCount(size: size) - 1
        let sealed = try handle.read(upToCount: BlobSealing.sealedChunkSize) ?? Data()
        do {
            return try sealing.open(sealed, index: index, isLast: isLast)
        } catch {
            throw AttachmentError.damaged(sha256: sha256)
        }
    }
}

extension BlobFileReader: UploadBodyReader {
    /// Fills `buffer` with the next plain bytes, as an upload's transport pulls them.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let bytes = try read(upTo: buffer.count)
        bytes.copyBytes(to: buffer)
        return bytes.count
    }
}
