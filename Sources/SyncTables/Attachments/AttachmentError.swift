/// Why an attachment could not be imported, read, kept or sent (in ``SyncError/attachment(_:)``).
public enum AttachmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file to import could not be read.
    case unreadableFile(path: String, message: String)
    /// The blob folder beside the store could not be written or read.
    case folder(path: String, message: String)
    /// The attachment's file is neither on this device nor importable: an item names a blob this device never
    /// imported or received. Import the file with ``SyncContext/importAttachment(contentsOf:contentType:name:)``
    /// and store the attachment it returns.
    case notImported(sha256: String)
    /// The attachment's file is not on this device and could not be downloaded (no client, or the server does
    /// not have it).
    case notOnDevice(sha256: String)
    /// An item's property declared as an attachment holds something else.
    case notAnAttachment(table: String, property: String)
    /// An attachment's size does not match the file this device holds under its hash.
    case sizeMismatch(sha256: String, expected: Int64, actual: Int64)
    /// A blob file's bytes no longer hash to its name, or an encrypted one fails its authentication: it was
    /// damaged or tampered with on disk. It is removed and downloaded again when needed.
    case damaged(sha256: String)
    /// The server offers no blob endpoints, so attachments cannot be uploaded or downloaded.
    case serverHasNoBlobs

    /// A message naming what failed and how to fix it.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let message):
            return "Could not read the file '\(path)' to attach: \(message)."
        case .folder(let path, let message):
            return "The attachment folder '\(path)' failed: \(message)."
        case .notImported(let sha256):
            return "No attachment \(sha256) was imported on this device. Import the file with "
                + "importAttachment(contentsOf:) and store the attachment it returns."
        case .notOnDevice(let sha256):
            return "The attachment \(sha256) is not on this device and could not be downloaded."
        case .notAnAttachment(let table, let property):
            return "Property '\(property)' of table '\(table)' is declared as an attachment but holds something "
                + "else: store a FileAttachment (or nil) in it."
        case .sizeMismatch(let sha256, let expected, let actual):
            return "The attachment \(sha256) says \(expected) bytes, but its file has \(actual)."
        case .damaged(let sha256):
            return "The stored file of attachment \(sha256) is damaged; it was removed and is downloaded again "
                + "when needed."
        case .serverHasNoBlobs:
            return "The server offers no blob endpoints, so attachments cannot be sent or received."
        }
    }
}
