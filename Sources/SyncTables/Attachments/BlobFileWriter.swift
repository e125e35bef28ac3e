import Foundation

/// Writes a blob file from its plain bytes as they come, hashing them on the way: plain, or sealed in chunks
/// (``BlobSealing``) for an encrypted store. Never holds more than one chunk.
///
/// Used from one task at a time.
final class BlobFileWriter {
    private let handle: FileHandle
    private let sealing: BlobSealing?
    private var hasher = BlobHasher()
    private var pending = Data()
    private var chunkIndex: UInt64 = 0
    /// The plain bytes written so far.
    private(set) var size: Int64 = 0

    /// Creates (or truncates) the file at `url`.
    init(creating url: URL, sealing: BlobSealing?) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw AttachmentError.folder(path: url.path, message: "could not create \(url.lastPathComponent)")
        }
        handle = try FileHandle(forWritingTo: url)
        self.sealing = sealing
    }

    /// Continues the partial file at `url` (a download cut short): keeps its whole chunks (a sealed file) or
    /// all of it (a plain one), hashing them again, and appends after them. A file missing or unreadable
    /// with `sealing` starts over.
    init(resuming url: URL, sealing: BlobSealing?) throws {
        let manager = FileManager.default
        let onDisk = ((try? manager.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.int64Value ?? 0
        let kept: Int64
        if sealing != nil {
            kept = onDisk / Int64(BlobSealing.sealedChunkSize) * Int64(BlobSealing.sealedChunkSize)
        } else {
            kept = onDisk
        }
        if onDisk == 0 && !manager.fileExists(atPath: url.path) {
            guard manager.createFile(atPath: url.path, contents: nil) else {
                throw AttachmentError.folder(path: url.path, message: "could not create \(url.lastPathComponent)")
            }
        }
        handle = try FileHandle(forUpdating: url)
        self.sealing = sealing
        try handle.truncate(atOffset: UInt64(kept))
        // Hash what is kept again, so the finished file's hash covers every byte.
        let plainKept = sealing == nil ? kept : kept / Int64(BlobSealing.sealedChunkSize) * Int64(BlobSealing.chunkSize)
        if plainKept > 0 {
            let reader = try BlobFileReader(
                url: url, sha256: "", size: plainKept, sealing: sealing, offset: 0, allChunksFull: true)
            while true {
                let chunk = try reader.read(upTo: 1 << 20)
                if chunk.isEmpty { break }
                hasher.update(chunk)
            }
        }
        size = plainKept
        chunkIndex = UInt64(plainKept / Int64(BlobSealing.chunkSize))
        try handle.seek(toOffset: UInt64(kept))
    }

    deinit {
        try? handle.close()
    }

    /// Adds plain bytes.
    func write(_ bytes: some DataProtocol) throws {
        hasher.update(bytes)
        size += Int64(bytes.count)
        guard let sealing else {
            try handle.write(contentsOf: bytes)
            return
        }
        pending.append(contentsOf: bytes)
        // A full chunk is sealed only once more bytes follow it: the last chunk is sealed as the last one.
        while pending.count > BlobSealing.chunkSize {
            try handle.write(
                contentsOf: try sealing.seal(pending.prefix(BlobSealing.chunkSize), index: chunkIndex, isLast: false))
            pending.removeFirst(BlobSealing.chunkSize)
            chunkIndex += 1
        }
    }

    /// Flushes what is written so far to disk (a download's progress, which a resume keeps); a sealed file
    /// keeps its last, incomplete chunk in memory until more bytes or ``finish()`` complete it.
    func flush() throws {
        try handle.synchronize()
    }

    /// Writes what is left, flushes the file to disk and closes it; returns the SHA-256 of the plain bytes.
    func finish() throws -> String {
        if let sealing {
            try handle.write(contentsOf: try sealing.seal(pending, index: chunkIndex, isLast: true))
            pending.removeAll()
        }
        try handle.synchronize()
        try handle.close()
        return hasher.hex
    }
}
