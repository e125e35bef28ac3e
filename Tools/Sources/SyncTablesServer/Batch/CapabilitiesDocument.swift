import SyncTablesCore

/// The capabilities document (`GET /sync/capabilities`): the extensions of the table protocol this server
/// offers, so clients discover them instead of assuming them.
///
/// ```json
/// {"batch": {"path": "/sync/batch", "maxOperations": 100, "maxBytes": 1048576},
///  "idempotency": {"header": "Idempotency-Key", "retentionSeconds": 86400}, "requestEncodings": ["gzip"],
///  "changes": {"path": "/sync/changes", "heartbeatSeconds": 15},
///  "blobs": {"path": "/sync/blobs", "maxBytes": 1073741824}}
/// ```
///
/// `requestEncodings` lists the `Content-Encoding`s request bodies may be sent in (their decoded size
/// still counts against `maxBytes`); `idempotency` says that keyed writes replay (see <doc:IdempotentWrites>);
/// `changes` says where the change feed is served and how often an idle one sends a heartbeat (see
/// <doc:ChangeFeed>); `blobs` where blobs are uploaded and read, and the largest one accepted (see <doc:Blobs>).
enum CapabilitiesDocument {
    /// Where the document is served.
    static let path = "/sync/capabilities"
    /// Where batches are posted.
    static let batchPath = "/sync/batch"

    /// The document for a configuration.
    static func document(_ configuration: SyncServerConfiguration) -> JSONValue {
        var document = JSONObject()
        if configuration.maxBatchOperations > 0 {
            document["batch"] = .object(
                JSONObject([
                    "path": .string(batchPath),
                    "maxOperations": .integer(Int64(configuration.maxBatchOperations)),
                    "maxBytes": .integer(Int64(configuration.maxBodySize)),
                ]))
        }
        if configuration.idempotencyKeyRetention > .zero {
            let seconds = configuration.idempotencyKeyRetention.seconds.rounded(.up)
            document["idempotency"] = .object(
                JSONObject([
                    "header": .string(IdempotencyKey.headerName), "retentionSeconds": .integer(Int64(seconds)),
                ]))
        }
        if let changes = ChangeFeedSettings.capability(configuration) { document["changes"] = changes }
        if let blobs = BlobSettings.capability(configuration) { document["blobs"] = blobs }
        document["requestEncodings"] = .array(RequestBodyDecoding.acceptedEncodings.map { .string($0) })
        return .object(document)
    }
}
