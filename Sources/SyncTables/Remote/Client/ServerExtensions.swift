/// The extensions of the table protocol a server offers, read from its capabilities document
/// (`GET /sync/capabilities`, served by `sync-server`). A server without the document offers none.
@_spi(SyncTablesTools) public struct ServerExtensions: Sendable, Hashable {
    /// Batched writes, when offered.
    @_spi(SyncTablesTools) public var batch: BatchCapability?
    /// Replayed keyed writes, when offered.
    @_spi(SyncTablesTools) public var idempotency: IdempotencyCapability?
    /// The change feed (Server-Sent Events telling which tables changed), when offered.
    @_spi(SyncTablesTools) public var changes: ChangeFeedCapability?
    /// Content-addressed blobs (attachments), when offered.
    @_spi(SyncTablesTools) public var blobs: BlobCapability?

    /// A server offering nothing beyond the table protocol.
    @_spi(SyncTablesTools) public static let none = ServerExtensions(batch: nil)

    /// The capabilities a document describes; parts it does not describe correctly are not offered.
    @_spi(SyncTablesTools) public init(document: JSONValue) {
        guard case .object(let object) = document else {
            self.init(batch: nil)
            return
        }
        let idempotency = Self.idempotency(in: object)
        let changes = ChangeFeedCapability(document: object)
        let blobs = BlobCapability(document: object)
        guard case .object(let batch)? = object["batch"],
            case .string(let path)? = batch["path"], path.hasPrefix("/"),
            case .integer(let operations)? = batch["maxOperations"], operations > 0,
            case .integer(let bytes)? = batch["maxBytes"], bytes > 0
        else {
            self.init(batch: nil, idempotency: idempotency, changes: changes, blobs: blobs)
            return
        }
        var gzipsBody = false
        if case .array(let encodings)? = object["requestEncodings"] {
            gzipsBody = encodings.contains(.string("gzip"))
        }
        self.init(
            batch: BatchCapability(
                path: path, maxOperations: Int(operations), maxBytes: Int(bytes), gzipsBody: gzipsBody,
                carriesIdempotencyKeys: idempotency != nil),
            idempotency: idempotency, changes: changes, blobs: blobs)
    }

    /// Extensions offering batched writes as `batch` says (`nil`: none), keyed writes as `idempotency` says and
    /// the change feed as `changes` says, and blobs as `blobs` says.
    @_spi(SyncTablesTools) public init(
        batch: BatchCapability?, idempotency: IdempotencyCapability? = nil, changes: ChangeFeedCapability? = nil,
        blobs: BlobCapability? = nil
    ) {
        self.batch = batch
        self.idempotency = idempotency
        self.changes = changes
        self.blobs = blobs
    }

    /// `{"idempotency": {"header": "Idempotency-Key", "retentionSeconds": 86400}}`, when well formed.
    private static func idempotency(in document: JSONObject) -> IdempotencyCapability? {
        guard case .object(let entry)? = document["idempotency"], case .string(let header)? = entry["header"],
            IdempotencyKey.isHeaderName(header), case .integer(let seconds)? = entry["retentionSeconds"],
            seconds > 0
        else { return nil }
        return IdempotencyCapability(header: header, retentionSeconds: Int(seconds))
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
    /// Whether each write of a batch carries its idempotency key (the server offers replayed keyed writes).
    @_spi(SyncTablesTools) public var carriesIdempotencyKeys = false
}

/// How a server replays keyed writes (after the IETF draft "The Idempotency-Key HTTP Header Field"): a write
/// sent again with the same key gets the first answer instead of running twice.
@_spi(SyncTablesTools) public struct IdempotencyCapability: Sendable, Hashable {
    /// The request header that carries the key (`Idempotency-Key`).
    @_spi(SyncTablesTools) public var header: String
    /// How long the server keeps an answer for a repeat, in seconds.
    @_spi(SyncTablesTools) public var retentionSeconds: Int

    /// The key `value` as this server takes it.
    func key(_ value: String) -> IdempotencyKey {
        IdempotencyKey(header: header, value: value)
    }
}
