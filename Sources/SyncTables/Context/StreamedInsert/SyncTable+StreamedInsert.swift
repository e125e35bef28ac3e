// A large `insert(contentsOf:)` streamed into one transaction of a store with a thread of its own: the
// caller's side. The store's side is `SyncContext.insertNewStreamed(first:rest:to:)`; the chunks go from one
// to the other through a `ChunkChannel`.

extension SyncTable {
    /// Batches larger than this are streamed to a store with a thread of its own.
    static var streamingThreshold: Int { 1_024 }

    /// Items in the first chunk of a streamed insert, which the caller encodes before the store can start:
    /// small, so the store starts soon.
    static var firstStreamedChunkSize: Int { 64 }

    /// Items per later chunk: small enough that the store never waits long for the next one, large enough
    /// that handing a chunk over costs nothing next to writing it.
    static var streamedChunkSize: Int { 512 }

    /// What the task encoding a streamed insert's later chunks hands back.
    private enum EncodedRest: Sendable {
        /// The batch was stored as streamed: the prepared inserts whose row differs from the app's item, by
        /// their index in the batch.
        case stored(changed: [Int: PreparedInsert])
        /// The store gave the stream up: the batch goes through the general path.
        case refused
    }

    /// A large batch for a store with its own thread: a task on the shared pool encodes chunk after chunk
    /// while the store's thread writes them, all in one transaction, so encoding and writing overlap.
    /// When the batch is not simply new items (see ``SyncContext/insertNewStreamed(first:rest:to:)``), it
    /// is encoded again and written through the general path (rare: a clash or a new date property).
    func insertStreamed(
        _ originals: [Item], encodingRowsWith canonicalJSON: @escaping @Sendable (JSONObject) -> [UInt8]
    ) async throws -> [Item] {
        let firstSize = Self.firstStreamedChunkSize
        let first = try encodeChunk(originals[0..<firstSize], canonicalJSON: canonicalJSON)
        let channel = ChunkChannel<SyncContext.InsertChunk>()
        return try await withThrowingTaskGroup(of: EncodedRest.self) { group in
            // The shared pool, not the caller's executor preference: that may be the store's own thread,
            // which will be waiting for these chunks.
            group.addTask(executorPreference: globalConcurrentExecutor) {
                var changed: [Int: PreparedInsert] = [:]
                var sent: [SyncContext.InsertChunk] = []
                do {
                    var start = firstSize
                    while start < originals.count {
                        // The store gave up: its transaction is rolled back, the rest is not needed.
                        guard !channel.isStopped else { throw CancellationError() }
                        let end = min(start + Self.streamedChunkSize, originals.count)
                        let encoded = try encodeChunk(originals[start..<end], canonicalJSON: canonicalJSON)
                        channel.send(encoded.chunk)
                        sent.append(encoded.chunk)
                        changed.merge(encoded.changed) { _, later in later }
                        start = end
                    }
                    channel.finish()
                } catch {
                    channel.finish(throwing: error)
                    throw error
                }
                // Returning frees the encoded batch here, beside the store's commit, rather than on the store's
                // thread or the caller's after it: `sent` keeps every chunk alive until then.
                let stored = await channel.receiverOutcome()
                return withExtendedLifetime(sent) { stored ? .stored(changed: changed) : .refused }
            }
            // Whether the store took the stream reaches the encoding task too, through the channel.
            try await context.insertNewStreamed(first: first.chunk, rest: channel, to: name)
            switch try await group.next() ?? .refused {
            case .stored(let changed):
                return try returned(originals, replacing: changed.merging(first.changed) { later, _ in later })
            case .refused:
                let prepared = try originals.map { try prepareInsert($0) }
                try await write(prepared)
                return try returned(originals, replacing: Self.changed(prepared))
            }
        }
    }

    /// Encodes items for a streamed insert, in one pass: the chunk for the store, and the prepared inserts
    /// whose row differs from the app's item, by their index in the batch.
    private func encodeChunk(
        _ items: ArraySlice<Item>, canonicalJSON: @Sendable (JSONObject) -> [UInt8]
    ) throws -> (
        chunk: SyncContext.InsertChunk, changed: [Int: PreparedInsert]
    ) {
        var chunk = SyncContext.InsertChunk()
        var changed: [Int: PreparedInsert] = [:]
        chunk.rows.reserveCapacity(items.count)
        chunk.itemIds.reserveCapacity(items.count)
        chunk.canonicalJSON.reserveCapacity(items.count)
        for index in items.indices {
            let insert = try prepareInsert(items[index])
            // Unchanged means no server-owned property to strip: the row is the object as it is.
            let row = insert.changed ? ItemCoding.rowForInsert(insert.object) : insert.object
            chunk.rows.append(row)
            chunk.itemIds.append(insert.id)
            // Serialized here, off the store's thread, in the form the store keeps.
            chunk.canonicalJSON.append(canonicalJSON(row))
            if !insert.dateProperties.isEmpty { chunk.dateProperties.formUnion(insert.dateProperties) }
            if insert.changed { changed[index] = insert }
        }
        return (chunk, changed)
    }
}
