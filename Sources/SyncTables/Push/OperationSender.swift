@_spi(SyncTablesTools) import SyncTablesCore

/// Turns a queued operation into its HTTP request.
struct OperationSender: Sendable {
    let client: SyncClient
    /// Whether to ask the server for its extensions when the client does not know them yet; otherwise
    /// (`batchSize: 1`, which never asks) writes carry keys only when the client learned of them earlier.
    var asksForExtensions = true

    /// Sends the operation; returns the server's answer (its item is `nil` for deletes).
    ///
    /// On a server that replays keyed writes the request carries the operation's key, so a resend whose
    /// first answer was lost gets that answer instead of meeting its own write as a conflict.
    func send(_ operation: PushOperation) async throws -> WriteAnswer {
        let version = ItemVersion.version(of: operation.item)
        var features: ZumoFeatures = [.offline]
        if version != nil && operation.kind != .insert { features.insert(.conditional) }
        let key = try await idempotencyKey(for: operation)
        let response: TransportResponse
        switch operation.kind {
        case .insert:
            _ = try SyncClient.itemID(of: operation.item)
            response = try await client.sendTableRequest(
                .post, url: try client.tableURL(operation.table), body: SyncClient.wireBody(operation.item),
                features: features, idempotencyKey: key)
        case .update:
            let url = try client.tableURL(operation.table, id: try SyncClient.itemID(of: operation.item))
            response = try await client.sendTableRequest(
                .patch, url: url, body: SyncClient.wireBody(operation.item), ifMatch: version, features: features,
                idempotencyKey: key)
        case .delete:
            response = try await client.sendTableRequest(
                .delete, url: try client.tableURL(operation.table, id: operation.itemId), ifMatch: version,
                features: features, idempotencyKey: key)
        }
        return try WriteAnswer(of: operation.kind, response: response)
    }

    /// The operation's key when the server replays keyed writes (the client asks it once); `nil` otherwise.
    /// Throws what asking throws: the server cannot be reached, or 401.
    private func idempotencyKey(for operation: PushOperation) async throws -> IdempotencyKey? {
        guard let value = operation.idempotencyKey else { return nil }
        let extensions = asksForExtensions ? try await client.capabilities() : client.knownExtensions
        return extensions?.idempotency?.key(value)
    }
}

extension OperationSender {
    /// The operation as one write of a batch: the same method, path, `If-Match`, key and body as ``send(_:)``.
    static func batchedWrite(for operation: PushOperation) -> BatchedWrite {
        switch operation.kind {
        case .insert:
            BatchedWrite(
                method: .post, table: operation.table, id: nil, ifMatch: nil,
                body: SyncClient.wireObject(operation.item), idempotencyKey: operation.idempotencyKey)
        case .update:
            BatchedWrite(
                method: .patch, table: operation.table, id: operation.itemId,
                ifMatch: ItemVersion.version(of: operation.item),
                body: SyncClient.wireObject(operation.item), idempotencyKey: operation.idempotencyKey)
        case .delete:
            BatchedWrite(
                method: .delete, table: operation.table, id: operation.itemId,
                ifMatch: ItemVersion.version(of: operation.item),
                body: nil, idempotencyKey: operation.idempotencyKey)
        }
    }

}
