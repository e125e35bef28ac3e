import Crypto
import Foundation

@_spi(SyncTablesTools) @testable import SyncTables

/// An inspection with a photo and any number of documents, both declared as attachments.
struct Inspection: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var note: String
    var photo: FileAttachment?
    var documents: [FileAttachment]?
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) {
        $0.attachment(.photo)
        $0.attachment(.documents)
    }
}

/// Test bytes and their hash, computed independently of the library.
enum AttachmentBytes {
    /// `count` bytes that differ from run to run unless `seed` is given.
    static func make(_ count: Int, seed: UInt8 = .random(in: 0...255)) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The files in a blob folder, by name.
    static func files(in directory: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }
}
