import Crypto
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFileSystem

// Resumable uploads as files: `uploads/<token>` holds the bytes received so far (its size is the offset) and
// `uploads/<token>.upload` what the upload is for. Both survive a restart; the sweeper removes them once expired.

extension DirectoryBlobStorage {
    var uploads: FilePath { root.appending("uploads") }

    private func dataPath(_ token: String) -> FilePath { uploads.appending(token) }
    private func recordPath(_ token: String) -> FilePath { uploads.appending(token + ".upload") }

    /// Whether `token` could name an upload (32 lowercase hexadecimal digits), so no path escapes `uploads/`.
    static func isToken(_ token: String) -> Bool {
        token.utf8.count == 32 && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    func createUpload(of blob: BlobHash, owner: String?, createdAt: Date) async throws -> String {
        let token = BlobHash(digest: (0..<16).map { _ in UInt8.random(in: .min ... .max) }).hex
        try await fileSystem.createDirectory(at: uploads, withIntermediateDirectories: true, permissions: nil)
        // The record is written after the (empty) data file: a record always has its data.
        try await fileSystem.withFileHandle(forWritingAt: dataPath(token), options: .newFile(replaceExisting: false)) {
            _ in
        }
        let record = [blob.hex, String(createdAt.millisecondsSince1970), owner ?? ""].joined(separator: "\n")
        try await fileSystem.withFileHandle(
            forWritingAt: recordPath(token), options: .newFile(replaceExisting: false)
        ) { handle in
            _ = try await handle.write(contentsOf: Array(record.utf8), toAbsoluteOffset: 0)
        }
        return token
    }

    func upload(_ token: String) async throws -> BlobUpload? {
        guard Self.isToken(token),
            let info = try await fileSystem.info(forFileAt: dataPath(token)), info.type == .regular,
            let record = try await readRecord(token)
        else { return nil }
        return BlobUpload(blob: record.blob, owner: record.owner, createdAt: record.createdAt, offset: info.size)
    }

    private func readRecord(_ token: String) async throws -> (blob: BlobHash, owner: String?, createdAt: Date)? {
        let bytes: ByteBuffer
        do {
            bytes = try await ByteBuffer(contentsOf: recordPath(token), maximumSizeAllowed: .kibibytes(64))
        } catch let error as FileSystemError where error.code == .notFound {
            return nil
        }
        let lines = String(buffer: bytes).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 3, let blob = BlobHash(lines[0]), let milliseconds = Int64(lines[1]) else { return nil }
        return (
            blob, lines[2].isEmpty ? nil : String(lines[2]), Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        )
    }

    func append(to token: String, at offset: Int64, from body: RequestBody, limit: Int64) async throws -> Int64 {
        guard try await upload(token) != nil else { throw BlobStorageError.noSuchUpload }
        guard appending.claim(token) else { throw BlobStorageError.uploadBusy }
        defer { appending.release(token) }
        return try await fileSystem.withFileHandle(
            forWritingAt: dataPath(token), options: .modifyFile(createIfNecessary: false)
        ) { handle in
            let current = try await handle.info().size
            guard current == offset else { throw BlobStorageError.offsetMismatch(current: current) }
            // What arrived before a failure is flushed as the writer closes, so the upload resumes after it.
            return try await handle.withBufferedWriter(startingAtAbsoluteOffset: offset) { writer in
                var size = offset
                try await body.forEachBuffer { buffer in
                    guard size + Int64(buffer.readableBytes) <= limit else {
                        throw BlobStorageError.tooLarge(limit: limit)
                    }
                    size += Int64(buffer.readableBytes)
                    _ = try await writer.write(contentsOf: buffer)
                }
                return size
            }
        }
    }

    func completeUpload(_ token: String) async throws -> BlobStoreOutcome {
        guard let upload = try await upload(token) else { throw BlobStorageError.noSuchUpload }
        guard appending.claim(token) else { throw BlobStorageError.uploadBusy }
        defer { appending.release(token) }
        let received = try await fileSystem.withFileHandle(forReadingAt: dataPath(token)) { handle in
            var hasher = SHA256()
            for try await chunk in handle.readChunks(chunkLength: .kibibytes(256)) {
                chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            }
            return BlobHash(digest: hasher.finalize())
        }
        guard received == upload.blob else {
            try await cancelUpload(token)
            throw BlobStorageError.hashMismatch(expected: upload.blob, received: received)
        }
        let outcome = try await moveIntoPlace(dataPath(token), as: upload.blob)
        _ = try await fileSystem.removeItem(at: recordPath(token), strategy: .platformDefault, recursively: false)
        return outcome
    }

    func cancelUpload(_ token: String) async throws {
        guard Self.isToken(token) else { return }
        _ = try await fileSystem.removeItem(at: recordPath(token), strategy: .platformDefault, recursively: false)
        _ = try await fileSystem.removeItem(at: dataPath(token), strategy: .platformDefault, recursively: false)
    }

    func removeUploads(createdBefore cutoff: Date, limit: Int) async throws -> Int {
        guard try await fileSystem.info(forFileAt: uploads) != nil else { return 0 }
        var expired: [String] = []
        try await fileSystem.withDirectoryHandle(atPath: uploads) { directory in
            for try await entry in directory.listContents() where expired.count < limit {
                guard let name = entry.name.string.split(separator: ".").first.map(String.init),
                    entry.name.string == name + ".upload", let record = try await readRecord(name),
                    record.createdAt < cutoff
                else { continue }
                expired.append(name)
            }
        }
        for token in expired { try await cancelUpload(token) }
        return expired.count
    }
}

/// The uploads a request is appending to or completing, so two requests never write one upload at once.
final class UploadsInProgress: Sendable {
    private let tokens = NIOLockedValueBox(Set<String>())

    /// Marks `token` busy; `false` when it already was.
    func claim(_ token: String) -> Bool { tokens.withLockedValue { $0.insert(token).inserted } }

    /// Marks `token` free again.
    func release(_ token: String) { _ = tokens.withLockedValue { $0.remove(token) } }
}
