import Crypto
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFileSystem

/// Blobs as files in a directory, one file per blob named by its hash, in a subdirectory named by the hash's
/// first two digits (`ab/abcd…`), so no directory grows past a few thousand entries.
///
/// An upload is written to `incoming/` while it is hashed, then renamed into place: a blob appears whole or
/// not at all, and a server killed mid-upload leaves only a file in `incoming/`, which a start an hour later
/// removes.
/// Resumable uploads keep their bytes in `uploads/` (see `DirectoryBlobStorage+Uploads`).
struct DirectoryBlobStorage: BlobStorage {
    /// The directory holding the blobs.
    let root: FilePath
    /// Whether ``close()`` removes the directory (one the server made for an in-memory database).
    let isTemporary: Bool
    let fileSystem = FileSystem.shared
    /// The uploads being appended to now.
    let appending: UploadsInProgress

    /// How long a file in `incoming/` goes unwritten before the next start removes it: an upload in progress
    /// (perhaps another instance's, sharing the directory) writes to its file all the time.
    static let staleIncoming: Duration = .seconds(3600)

    /// Opens (creating when absent) the blob directory at `root`, removing the files of plain uploads that a
    /// previous run left unfinished.
    static func open(at root: FilePath, isTemporary: Bool = false) async throws -> DirectoryBlobStorage {
        let storage = DirectoryBlobStorage(root: root, isTemporary: isTemporary, appending: UploadsInProgress())
        try await storage.fileSystem.createDirectory(
            at: storage.incoming, withIntermediateDirectories: true, permissions: nil)
        try await storage.removeStaleIncoming()
        return storage
    }

    private func removeStaleIncoming() async throws {
        let cutoff = Int(Date().timeIntervalSince1970 - Self.staleIncoming.seconds)
        var stale: [FilePath] = []
        try await fileSystem.withDirectoryHandle(atPath: incoming) { directory in
            for try await entry in directory.listContents() {
                guard let info = try await fileSystem.info(forFileAt: entry.path),
                    info.lastDataModificationTime.seconds < cutoff
                else { continue }
                stale.append(entry.path)
            }
        }
        for path in stale {
            _ = try await fileSystem.removeItem(at: path, strategy: .platformDefault, recursively: false)
        }
    }

    /// A fresh directory under the system's temporary directory, removed on ``close()``.
    static func temporary() async throws -> DirectoryBlobStorage {
        let base = try await FileSystem.shared.temporaryDirectory
        let root = try await FileSystem.shared.createTemporaryDirectory(
            template: base.appending("sync-server-blobs-XXXXXX"))
        return try await open(at: root, isTemporary: true)
    }

    private var incoming: FilePath { root.appending("incoming") }

    /// Where a blob's file lives.
    func path(of blob: BlobHash) -> FilePath {
        root.appending(String(blob.hex.prefix(2))).appending(blob.hex)
    }

    func size(of blob: BlobHash) async throws -> Int64? {
        guard let info = try await fileSystem.info(forFileAt: path(of: blob)), info.type == .regular else {
            return nil
        }
        return info.size
    }

    func store(_ blob: BlobHash, from body: RequestBody, limit: Int64) async throws -> BlobStoreOutcome {
        let upload = incoming.appending("\(blob.hex).\(UInt64.random(in: .min ... .max))")
        do {
            let received = try await fileSystem.withFileHandle(
                forWritingAt: upload, options: .newFile(replaceExisting: false)
            ) { handle in
                try await handle.withBufferedWriter { writer in
                    var hasher = SHA256()
                    var size: Int64 = 0
                    try await body.forEachBuffer { buffer in
                        size += Int64(buffer.readableBytes)
                        guard size <= limit else { throw BlobStorageError.tooLarge(limit: limit) }
                        buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                        _ = try await writer.write(contentsOf: buffer)
                    }
                    return BlobHash(digest: hasher.finalize())
                }
            }
            guard received == blob else { throw BlobStorageError.hashMismatch(expected: blob, received: received) }
            return try await moveIntoPlace(upload, as: blob)
        } catch {
            _ = try? await fileSystem.removeItem(at: upload, strategy: .platformDefault, recursively: false)
            throw error
        }
    }

    /// Renames a verified upload to its blob's name (atomic: readers see the whole file or none).
    func moveIntoPlace(_ upload: FilePath, as blob: BlobHash) async throws -> BlobStoreOutcome {
        let destination = path(of: blob)
        if try await size(of: blob) != nil {
            _ = try await fileSystem.removeItem(at: upload, strategy: .platformDefault, recursively: false)
            return .existed
        }
        try await fileSystem.createDirectory(
            at: destination.removingLastComponent(), withIntermediateDirectories: true, permissions: nil)
        do {
            try await fileSystem.moveItem(at: upload, to: destination)
        } catch {
            // Another upload of the same bytes won the race: what is stored is what this one would have stored.
            guard try await size(of: blob) != nil else { throw error }
            _ = try await fileSystem.removeItem(at: upload, strategy: .platformDefault, recursively: false)
            return .existed
        }
        return .created
    }

    func contents(of blob: BlobHash, range: ClosedRange<Int64>) async throws -> ResponseBody? {
        guard try await size(of: blob) != nil else { return nil }
        let path = path(of: blob)
        let fileSystem = fileSystem
        return ResponseBody(contentLength: Int(range.upperBound - range.lowerBound + 1)) { writer in
            try await fileSystem.withFileHandle(forReadingAt: path) { handle in
                let chunks = handle.readChunks(
                    in: range.lowerBound..<(range.upperBound + 1), chunkLength: .kibibytes(128))
                for try await chunk in chunks { try await writer.write(chunk) }
            }
            try await writer.finish(nil)
        }
    }

    func remove(_ blob: BlobHash) async throws {
        _ = try await fileSystem.removeItem(at: path(of: blob), strategy: .platformDefault, recursively: false)
    }

    func close() async throws {
        guard isTemporary else { return }
        _ = try await fileSystem.removeItem(at: root, strategy: .platformDefault, recursively: true)
    }
}
