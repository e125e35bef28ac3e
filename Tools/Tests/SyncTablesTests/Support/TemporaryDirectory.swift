import Foundation

/// A fresh directory under the system temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("synctables-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path for a new database file in this directory.
    func newDatabasePath() -> String {
        url.appendingPathComponent("store-\(UUID().uuidString).sqlite").path
    }
}
