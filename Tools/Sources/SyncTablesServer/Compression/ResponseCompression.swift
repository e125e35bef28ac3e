/// When a ``SyncServer`` gzips its responses.
///
/// A response is gzipped when the request's `Accept-Encoding` allows gzip and its body is at least
/// ``minimumSize`` bytes: query pages, mostly, which shrink to a fraction of their size. Smaller bodies
/// go as they are (compressing them costs more than it saves). Responses that could be compressed carry
/// `Vary: Accept-Encoding`.
///
/// ```swift
/// var configuration = SyncServerConfiguration(storage: .inMemory)
/// configuration.responseCompression = ResponseCompression(minimumSize: 4096)
/// configuration.responseCompression = .off
/// ```
public struct ResponseCompression: Sendable, Hashable {
    /// The smallest body, in bytes, that is gzipped; `nil` never compresses.
    public var minimumSize: Int?

    /// Compression of bodies of at least `minimumSize` bytes (1 KiB unless given); `nil` for none.
    public init(minimumSize: Int? = 1024) {
        self.minimumSize = minimumSize
    }

    /// No response is compressed.
    public static let off = ResponseCompression(minimumSize: nil)

    /// Whether a body of `length` bytes is compressed for clients that accept gzip.
    func applies(toLength length: Int) -> Bool {
        guard let minimumSize else { return false }
        return length >= minimumSize
    }
}
