/// The extensions of the table protocol a server offers, read from its capabilities document
/// (`GET /sync/capabilities`, served by `sync-server`). A server without the document offers none.
package struct ServerExtensions: Sendable, Hashable {
    /// Batched writes, when offered.
    package var batch: BatchCapability?

    /// A server offering nothing beyond the table protocol.
    package static let none = ServerExtensions(batch: nil)

    /// The capabilities a document describes; parts it does not describe correctly are not offered.
    package init(document: JSONValue) {
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

    package init(batch: BatchCapability?) {
        self.batch = batch
    }
}

/// How a server takes batched writes: where, and how many operations and bytes per request.
package struct BatchCapability: Sendable, Hashable {
    /// The path batches are posted to, from the server's root (e.g. `/sync/batch`).
    package var path: String
    /// The most operations one batch may carry.
    package var maxOperations: Int
    /// The largest request body the server accepts, in bytes (decoded, when sent compressed).
    package var maxBytes: Int
    /// Whether the server takes request bodies gzipped (its document lists `gzip` in `requestEncodings`).
    package var gzipsBody = false
}
