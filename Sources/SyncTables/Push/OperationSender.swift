@_spi(SyncTablesTools) import SyncTablesCore

/// Turns a queued operation into its HTTP request.
struct OperationSender: Sendable {
    let client: SyncClient

    /// Sends the operation; returns the server's item for inserts and updates, `nil` for deletes.
    func send(_ operation: PushOperation) async throws -> JSONObject? {
        let version = ItemVersion.version(of: operation.item)
        var features: ZumoFeatures = [.offline]
        if version != nil && operation.kind != .insert { features.insert(.conditional) }
        switch operation.kind {
        case .insert:
            return try await client.insert(table: operation.table, item: operation.item, features: features)
        case .update:
            return try await client.update(
                table: operation.table,
                item: operation.item,
                ifMatch: version,
                features: features
            )
        case .delete:
            try await client.delete(table: operation.table, id: operation.itemId, ifMatch: version, features: features)
            return nil
        }
    }
}

extension OperationSender {
    /// The operation as one write of a batch: the same method, path, `If-Match` and body as ``send(_:)``.
    static func batchedWrite(for operation: PushOperation) -> BatchedWrite {
        switch operation.kind {
        case .insert:
            BatchedWrite(
                method: .post, table: operation.table, id: nil, ifMatch: nil,
                body: SyncClient.wireObject(operation.item))
        case .update:
            BatchedWrite(
                method: .patch, table: operation.table, id: operation.itemId,
                ifMatch: ItemVersion.version(of: operation.item),
                body: SyncClient.wireObject(operation.item))
        case .delete:
            BatchedWrite(
                method: .delete, table: operation.table, id: operation.itemId,
                ifMatch: ItemVersion.version(of: operation.item),
                body: nil)
        }
    }

    /// What ``send(_:)`` returns or throws for this response to the operation's single request.
    static func outcome(of kind: OperationKind, response: TransportResponse) throws -> JSONObject? {
        guard response.isSuccess else { throw ResponseReading.statusError(from: response) }
        return kind == .delete ? nil : try ResponseReading.item(from: response)
    }
}
