/// A file attached to an item: stored in one of the item's properties, it names the file's bytes by their
/// SHA-256, so the same photo attached twice is stored and sent once.
///
/// Import a file or bytes with ``SyncContext/importAttachment(contentsOf:contentType:name:)`` or
/// ``SyncContext/importAttachment(_:contentType:name:)``, store the attachment in an item, and declare the
/// property with ``SyncRules/Declaration/attachment(_:)``. A push uploads the file before the first operation
/// that references it; another device downloads it when it reads it, or with the pull
/// (``SyncRules/Declaration/downloadAttachmentsEagerly()``).
///
/// ```swift
/// struct Inspection: SyncItem, SyncRulesProvider {
///     var id: String
///     var note: String
///     var photo: FileAttachment?
///
///     static let syncRules = SyncRules(keys: CodingKeys.self) { $0.attachment(.photo) }
/// }
///
/// let photo = try await context.importAttachment(contentsOf: pictureURL, contentType: "image/jpeg")
/// try await inspections.insert(Inspection(id: "", note: "Crack in the wall", photo: photo))
/// ```
///
/// On the wire it is the JSON object `{"sha256": …, "size": …, "contentType": …, "name": …}`, which
/// `sync-server` declares as the `attachment` column type.
public struct FileAttachment: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The SHA-256 of the file's bytes, as 64 lowercase hexadecimal digits.
    public let sha256: String
    /// The file's size in bytes.
    public let size: Int64
    /// The file's media type, such as `image/jpeg`, if known.
    public var contentType: String?
    /// The file's original name, such as `IMG_0042.jpg`, if known.
    public var name: String?

    /// An attachment of the file with this hash and size; import files instead of making attachments by hand.
    public init(sha256: String, size: Int64, contentType: String? = nil, name: String? = nil) {
        self.sha256 = sha256
        self.size = size
        self.contentType = contentType
        self.name = name
    }

    /// "IMG_0042.jpg (2048 bytes, sha256 9f86d081…)".
    public var description: String {
        "\(name ?? "attachment") (\(size) bytes, sha256 \(sha256.prefix(8))…)"
    }

    /// Whether `text` is a SHA-256 as attachments spell it: 64 lowercase hexadecimal digits.
    static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
