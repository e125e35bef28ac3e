/// Why a blob could not be checked, uploaded or downloaded, when the server said so or cannot serve blobs.
///
/// Network failures stay ``TransportError``; other refusals are ``HTTPStatusError``.
///
/// ```swift
/// do { try await client.uploadBlob(sha256: hash, body: body, resumeAt: nil, saveLocation: save) }
/// catch BlobError.tooLarge(_, let limit) { showTooLarge(limit) }
/// ```
@_spi(SyncTablesTools) public enum BlobError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server's capabilities document offers no blobs.
    case notOffered
    /// The client's transport cannot stream bodies (it is neither an ``UploadingHTTPTransport`` for uploads
    /// nor a ``StreamingHTTPTransport`` for downloads).
    case transportCannotStream
    /// The name is not a SHA-256 as 64 lowercase hexadecimal digits.
    case invalidName(String)
    /// The server holds no blob with this hash (404).
    case notFound(sha256: String)
    /// The bytes sent do not hash to the name (422); the server stored nothing.
    case hashMismatch(sha256: String, message: String?)
    /// The blob is larger than the server accepts (413, or known before sending); `maxBytes` when known.
    case tooLarge(sha256: String, maxBytes: Int64?)
    /// The caller may not upload or read blobs (403).
    case forbidden(sha256: String, message: String?)
    /// A resumable upload kept meeting offset conflicts or expiring, `attempts` times in a row.
    case uploadNotProgressing(sha256: String, attempts: Int)

    /// What went wrong, in one sentence.
    public var description: String {
        switch self {
        case .notOffered:
            "The server offers no blobs."
        case .transportCannotStream:
            "The client's transport cannot stream blob bodies."
        case .invalidName(let name):
            "\"\(name)\" is not a SHA-256 as 64 lowercase hexadecimal digits."
        case .notFound(let sha256):
            "The server holds no blob \(sha256)."
        case .hashMismatch(let sha256, let message):
            "The bytes sent do not hash to \(sha256); nothing was stored" + (message.map { ": \($0)" } ?? ".")
        case .tooLarge(let sha256, let maxBytes):
            "The blob \(sha256) is larger than the server accepts"
                + (maxBytes.map { " (at most \($0) bytes)." } ?? ".")
        case .forbidden(let sha256, let message):
            "The server forbids this caller the blob \(sha256)" + (message.map { ": \($0)" } ?? ".")
        case .uploadNotProgressing(let sha256, let attempts):
            "The upload of \(sha256) met an offset conflict or an expired upload \(attempts) times in a row."
        }
    }
}
