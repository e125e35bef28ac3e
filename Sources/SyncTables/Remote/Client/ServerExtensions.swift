/// The extensions of the table protocol a server offers, read from its capabilities document
/// (`GET /sync/capabilities`, served by `sync-server`). A server without the document offers none.
@_spi(SyncTablesTools) public struct ServerExtensions: Sendable, Hashable {
    /// Batched writes, when offered.
    @_spi(SyncTablesTools) public var batch: BatchCapability?

    /// A server offering nothing beyond the table protocol.
    @_spi(SyncTablesTools) public static let none = ServerExtensions(batch: nil)

    /// The capabilities a document describes; parts it does not describe correctly are not offered.
    @_spi(SyncTablesTools) public init(document: JSONValue) {
        guard case .object(let object) = document, case .object(let batch)? = object["batch"],
            case .string(let path)? = batch["path"], path.hasPrefix("/"),
            case .integer(let operations)? = batch["maxOperations"], operations > 0,
            case .integer(let bytes)? = batch["maxBytes"], bytes > 0
        else {
            self.batch = nil
            return
        }
        var gzipsBody = false
        if case .array(let encodings)? = object["requestEncodings"] {
            gzipsBody = encodings.contains(.string("gzip"))
        }
        self.batch = BatchCapability(
            path: path, maxOperations: Int(operations), maxBytes: Int(bytes), gzipsBody: gzipsBody)
    }

    /// Extensions offering batched writes as `batch` says (`nil`: none).
    @_spi(SyncTablesTools) public init(batch: BatchCapability?) {
        self.batch = batch
    }
}

/// How a server takes batched writes: where, and how many operations and bytes per request.
@_spi(SyncTablesTools) public struct BatchCapability: Sendable, Hashable {
    /// The path batches are posted to, from the server's root (e.g. `/sync/batch`).
    @_spi(SyncTablesTools) public var path: String
    /// The most operations one batch may carry.
    @_spi(SyncTablesTools) public var maxOperations: Int
    /// The largest request body the server accepts, in bytes (decoded, when sent compressed).
    @_spi(SyncTablesTools) public var maxBytes: Int
    /// Whether the server takes request bodies gzipped (its document lists `gzip` in `requestEncodings`).
    @_spi(SyncTablesTools) public var gzipsBody = false
}
