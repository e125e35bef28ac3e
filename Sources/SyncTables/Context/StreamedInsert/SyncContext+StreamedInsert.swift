import Foundation
import SyncTablesCore

extension SyncContext {
    /// One chunk of a streamed insert: rows ready to store (server-owned properties stripped), their ids,
    /// their canonical JSON text, and the properties the items encoded from `Date`s.
    struct InsertChunk: Sendable {
        var rows: [JSONObject] = []
        var itemIds: [String] = []
        var canonicalJSON: [[UInt8]] = []
        var dateProperties: Set<String> = []
    }

    /// Thrown inside a streamed insert's transaction when the batch needs the general path.
    private struct StreamRefused: Error {}

    /// Inserts a batch of new items in one transaction while the task that encodes them is still sending
    /// chunks through `rest`, so the store writes one chunk while the next is encoded.
    ///
    /// Only for a store with ``StoreCapabilities/hasDedicatedThread`` (the transaction waits for chunks on the store's thread). Returns
    /// `false`, having changed nothing, when the batch needs the general path of ``write(_:to:dateProperties:)``:
    /// an id that is stored, queued, repeated or being pushed, or a chunk with a date property the table's
    /// definition lacks. An error the sender finishes with is rethrown as it is, after the rollback. The
    /// sender learns the same through ``ChunkChannel/receiverOutcome()``: the end of the stream is taken
    /// only when the batch is written, and a refusal abandons the stream.
    @discardableResult
    func insertNewStreamed(first: InsertChunk, rest: ChunkChannel<InsertChunk>, to table: String) async throws
        -> Bool
    {
        // The queue limit is checked on the general path.
        guard configuration.maxQueueSize == nil else {
            rest.abandon()
            return false
        }
        let itemIds: [String]
        do {
            if !first.dateProperties.isEmpty {
                try await define(table, dateProperties: first.dateProperties)
            }
            let knownDates = definition(of: table)?.dateProperties ?? []
            let writer = LocalWriteTransaction(
                table: table, queue: queue, now: Timestamp(millisecondPrecision: clock.now()))
            let inFlightItems = self.inFlightItems
            itemIds = try await store.write { transaction in
                var written: [String] = []
                var next: InsertChunk? = first
                while let chunk = next {
                    guard chunk.dateProperties.isSubset(of: knownDates),
                        !inFlightItems.containsAny(table: table, itemIds: chunk.itemIds),
                        try writer.insertNew(
                            rows: chunk.rows, itemIds: chunk.itemIds, canonicalJSON: chunk.canonicalJSON,
                            in: transaction)
                    else { throw StreamRefused() }
                    written += chunk.itemIds
                    next = try rest.next()
                }
                return written
            }
        } catch is StreamRefused {
            rest.abandon()
            return false
        } catch {
            // Read before stopping the sender: once stopped, it finishes with a CancellationError of its own.
            // An encoding error wins, as it does when a batch is encoded before it is written.
            let encodingFailure = rest.senderFailure
            rest.stop()
            throw encodingFailure ?? SyncError(converting: error)
        }
        eventBroadcaster.publish(.itemsInserted(table: table, ids: itemIds))
        changeNotifier.notify(table)
        return true
    }
}
