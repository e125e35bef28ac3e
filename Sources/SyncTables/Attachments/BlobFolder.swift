import Foundation

/// The folder beside the store that holds attachment files, each named by the SHA-256 of its plain bytes.
///
/// A file is written under a temporary name and renamed to its hash once complete, so a name only ever holds
/// a whole blob; the rename replaces any file of the same name atomically, so processes sharing the folder
/// never see half a file. Which blobs the folder should hold (and their keys, in an encrypted store) is kept
/// in the store (``BlobRecord``); a file without a record is left over from a crash and is collected.
struct BlobFolder: Sendable {
    /// The folder.
    let directory: URL
    /// Whether files are sealed with a key of their own (``BlobSealing``): the store is encrypted.
    let seals: Bool

    private static let temporarySuffix = ".incoming"
    private static let partialSuffix = ".partial"
    private static let lockSuffix = ".lock"

    /// The folder at `directory`, created with its first file.
    init(directory: URL, seals: Bool) {
        self.directory = directory
        self.seals = seals
    }

    /// The folder a store's attachments go to: `directory` when given, else beside the store's file
    /// (`<file>.blobs`), else (a store in memory) a new temporary folder.
    init(directory: URL?, for store: any LocalStore) {
        let capabilities = store.capabilities
        let chosen =
            directory ?? capabilities.fileLocation.map { URL(fileURLWithPath: $0 + ".blobs", isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "synctables-blobs-\(UUID().uuidString)", isDirectory: true)
        self.init(directory: chosen, seals: capabilities.encrypts)
    }

    /// Creates the folder when missing.
    func prepareFolder() throws(AttachmentError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .folder(path: directory.path, message: error.localizedDescription)
        }
    }

    /// The complete file of `sha256`.
    func fileURL(_ sha256: String) -> URL {
        directory.appendingPathComponent(sha256, isDirectory: false)
    }

    /// The download in progress of `sha256`.
    func partialURL(_ sha256: String) -> URL {
        directory.appendingPathComponent(sha256 + Self.partialSuffix, isDirectory: false)
    }

    /// Whether the complete file of `sha256` is here.
    func contains(_ sha256: String) -> Bool {
        FileManager.default.fileExists(atPath: fileURL(sha256).path)
    }

    /// A new temporary file name, unique among processes.
    func temporaryURL() -> URL {
        directory.appendingPathComponent(UUID().uuidString + Self.temporarySuffix, isDirectory: false)
    }

    /// Writes the bytes `fill` produces into a temporary file, sealed with a new key when the folder seals.
    /// The caller renames it (``commit(_:)``) or removes it.
    func write(_ fill: (BlobFileWriter) throws -> Void) throws -> WrittenBlob {
        try prepareFolder()
        let url = temporaryURL()
        let sealing = seals ? BlobSealing.random() : nil
        do {
            let writer = try BlobFileWriter(creating: url, sealing: sealing)
            try fill(writer)
            let sha256 = try writer.finish()
            return WrittenBlob(url: url, sha256: sha256, size: writer.size, sealing: sealing)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// Gives a written blob its name.
    func commit(_ written: WrittenBlob) throws(AttachmentError) {
        // rename(2) replaces an existing file atomically, which FileManager's move does not.
        if rename(written.url.path, fileURL(written.sha256).path) != 0 {
            let error = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: written.url)
            throw .folder(path: directory.path, message: "could not name \(written.sha256): \(error)")
        }
    }

    /// Removes the file (complete and partial) of `sha256`, if any.
    func remove(_ sha256: String) {
        try? FileManager.default.removeItem(at: fileURL(sha256))
        try? FileManager.default.removeItem(at: partialURL(sha256))
    }

    /// Removes the damaged file of `sha256` and marks its blob not local, so it is downloaded again when needed.
    func forgetDamaged(_ sha256: String, in store: any LocalStore) async throws {
        try await BlobRecord.update(sha256, in: store) { $0.isLocal = false }
        remove(sha256)
    }

    /// Removes every file of the folder (a wipe).
    func removeAll() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Opens the file of a blob for reading from `offset` on.
    func reader(_ record: BlobRecord, offset: Int64 = 0) throws -> BlobFileReader {
        try BlobFileReader(
            url: fileURL(record.sha256), sha256: record.sha256, size: record.size, sealing: record.sealing,
            offset: offset)
    }

    /// The hashes of the complete files here, and the temporary and partial files last changed before
    /// `cutoff` (left over by a crash or an abandoned download).
    func contents(staleBefore cutoff: Date) -> (blobs: [String], stale: [URL]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var blobs: [String] = []
        var stale: [URL] = []
        for name in names {
            if FileAttachment.isHash(name) {
                blobs.append(name)
            } else if [Self.temporarySuffix, Self.partialSuffix, Self.lockSuffix].contains(where: name.hasSuffix) {
                let url = directory.appendingPathComponent(name)
                let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
                if let modified, modified < cutoff { stale.append(url) }
            }
        }
        return (blobs, stale)
    }
}

/// A blob written under a temporary name, waiting to be named by its hash.
struct WrittenBlob: Sendable {
    /// The temporary file.
    let url: URL
    /// The SHA-256 of its plain bytes.
    let sha256: String
    /// Its plain size.
    let size: Int64
    /// Its key, when sealed.
    let sealing: BlobSealing?
}
