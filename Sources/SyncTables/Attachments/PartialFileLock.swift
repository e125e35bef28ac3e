import Foundation

/// An exclusive `flock(2)` on a file beside a partial download, so two processes sharing the store never
/// write the same partial file; a process that is killed releases it with its descriptors.
final class PartialFileLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock at `path`, waiting (polling) while another process holds it.
    static func acquire(_ path: String) async throws -> PartialFileLock {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            throw AttachmentError.folder(path: path, message: String(cString: strerror(errno)))
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                close(descriptor)
                throw error
            }
        }
        return PartialFileLock(descriptor: descriptor)
    }

    /// Releases the lock.
    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
