@_spi(SyncTablesTools) import SyncTablesCore

/// A server's successful answer to one pushed write.
struct WriteAnswer: Sendable {
    /// The server's item (`nil` for deletes).
    var item: JSONObject?
    /// Whether the server replayed the recorded answer of an earlier request with the same idempotency key
    /// (`Idempotent-Replayed: true`) instead of running this one.
    var replayed = false

    /// Sends one write and returns the server's answer; throws as ``PushOperation/Sender`` does.
    typealias Sender = @Sendable (PushOperation) async throws -> WriteAnswer

    /// The answer a response holds: its item, and whether it is a replay. Throws ``HTTPStatusError`` for
    /// a non-2xx response, ``RemoteError`` for an item that cannot be read.
    init(of kind: OperationKind, response: TransportResponse) throws {
        guard response.isSuccess else { throw ResponseReading.statusError(from: response) }
        item = kind == .delete ? nil : try ResponseReading.item(from: response)
        replayed = response.headers["Idempotent-Replayed"]?.lowercased() == "true"
    }

    init(item: JSONObject?, replayed: Bool = false) {
        (self.item, self.replayed) = (item, replayed)
    }
}
