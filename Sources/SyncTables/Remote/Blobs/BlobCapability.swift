/// How a server offers blobs: where they are uploaded and read, and the largest it accepts.
///
/// Read from the capabilities document's `"blobs": {"path": "/sync/blobs", "maxBytes": 1073741824}`.
@_spi(SyncTablesTools) public struct BlobCapability: Sendable, Hashable {
    /// The path of the blob endpoints, from the server's root (e.g. `/sync/blobs`).
    @_spi(SyncTablesTools) public var path: String
    /// The largest blob the server stores, in bytes.
    @_spi(SyncTablesTools) public var maxBytes: Int64

    /// Creates a capability.
    @_spi(SyncTablesTools) public init(path: String, maxBytes: Int64) {
        self.path = path
        self.maxBytes = maxBytes
    }

    /// The capability a document's `blobs` entry describes, or `nil` when it is missing or malformed.
    init?(document: JSONObject) {
        guard case .object(let entry)? = document["blobs"], case .string(let path)? = entry["path"],
            path.hasPrefix("/"), !path.contains("?"), !path.contains("#"),
            case .integer(let maxBytes)? = entry["maxBytes"], maxBytes > 0
        else { return nil }
        self.init(path: path, maxBytes: Int64(maxBytes))
    }
}
