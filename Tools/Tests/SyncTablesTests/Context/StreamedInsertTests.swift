import Foundation
@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A batch larger than one chunk, on a store with its own thread, is encoded on the shared pool while the
/// store's thread writes the chunks before it, all in one transaction. Whatever goes wrong in a later
/// chunk must leave nothing behind, exactly as the unstreamed path does.
@Suite("Streamed insert(contentsOf:)")
struct StreamedInsertTests {
    /// Past the streaming threshold: a first chunk and several later ones.
    static let batchSize = SyncTable<ContextTodo>.streamingThreshold + 529

    static func batch(prefix: String = "i") -> [ContextTodo] {
        (0..<batchSize).map { ContextTodo(id: "\(prefix)\($0)", text: "item \($0)", priority: $0 % 5) }
    }

    @Test func aLargeBatchStoresEveryItemAndQueuesTheInsertsInOrderWithOneEvent() async throws {
        let context = try await ContextStoreKind.sqlite.makeContext()
        let todos = try await context.table(ContextTodo.self)
        var events = context.events.makeAsyncIterator()
        let batch = Self.batch()

        let returned = try await todos.insert(contentsOf: batch)

        #expect(returned == batch)
        #expect(try await todos.query().fetchCount() == batch.count)
        #expect(try await todos.lookup(id: "i\(batch.count - 1)") == batch.last)
        let queued = try await context.pendingOperations()
        #expect(queued.map(\.itemId) == batch.map(\.id))
        #expect(queued.allSatisfy { $0.kind == .insert })
        #expect(queued.map(\.sequence) == queued.map(\.sequence).sorted())
        #expect(await events.next() == .itemsInserted(table: "ContextTodo", ids: batch.map(\.id)))
        try await context.close()
    }

    @Test func generatedIdsAndStrippedSystemPropertiesComeBackInTheReturnedItems() async throws {
        let context = try await ContextStoreKind.sqlite.makeContext()
        let todos = try await context.table(ContextTodo.self)
        var batch = Self.batch()
        batch[10].id = ""
        batch[Self.batchSize - 2].id = ""
        batch[Self.batchSize - 1].createdAt = Date(timeIntervalSince1970: 1_700_000_000)

        let returned = try await todos.insert(contentsOf: batch)

        #expect(returned.count == batch.count)
        #expect(!returned[10].id.isEmpty && !returned[Self.batchSize - 2].id.isEmpty)
        #expect(returned[Self.batchSize - 1].createdAt == nil)
        #expect(try await todos.lookup(id: returned[Self.batchSize - 2].id)?.text == batch[Self.batchSize - 2].text)
        #expect(try await context.pendingOperations().map(\.itemId) == returned.map(\.id))
        try await context.close()
    }

    /// Each clash sits in the last chunk, so earlier chunks are written when it is found.
    @Test func aClashInALaterChunkStoresNothingAndThrowsTheSameErrorAsASmallBatch() async throws {
        let context = try await ContextStoreKind.sqlite.makeContext()
        let store = context.store
        let todos = try await context.table(ContextTodo.self)
        try await store.write {
            try $0.upsert(table: "ContextTodo", items: [["id": "pulled", "text": "server"], ["id": "remote"]])
        }
        // A queued update whose row was removed by hand: the queue refuses an insert of its id.
        try await todos.update(ContextTodo(id: "remote", text: "edited"))
        try await store.write { _ = try $0.delete(table: "ContextTodo", ids: ["remote"]) }
        try await todos.insert(ContextTodo(id: "queued", text: "local"))
        let before = try await ContextSnapshot.take(context)
        let last = Self.batchSize - 1

        // "i5" repeats an id of the batch itself.
        for clash in ["pulled", "queued", "remote", "i5"] {
            let small = [ContextTodo(id: "i5", text: "small"), ContextTodo(id: clash, text: "clash")]
            let expected = await #expect(throws: SyncError.self) { try await todos.insert(contentsOf: small) }
            var batch = Self.batch()
            batch[last].id = clash
            let streamed = await #expect(throws: SyncError.self) { try await todos.insert(contentsOf: batch) }
            #expect(streamed != nil && streamed == expected, "a clash with \(clash)")
            #expect(try await ContextSnapshot.take(context) == before, "after a clash with \(clash)")
        }

        try await todos.insert(contentsOf: Self.batch())
        #expect(try await context.pendingOperationCount() == 2 + Self.batchSize)
        try await context.close()
    }

    @Test func anInvalidIdInALaterChunkStoresNothing() async throws {
        let context = try await ContextStoreKind.sqlite.makeContext()
        let todos = try await context.table(ContextTodo.self)
        var batch = Self.batch()
        batch[Self.batchSize - 1].id = "bad\u{0}id"

        await #expect {
            try await todos.insert(contentsOf: batch)
        } throws: { error in
            if case SyncError.invalidItemID("bad\u{0}id", _) = error { return true }
            return false
        }
        #expect(try await todos.query().fetchCount() == 0)
        #expect(try await context.pendingOperationCount() == 0)
        try await context.close()
    }

    /// A date property first seen in a later chunk is not in the table's definition yet: the batch is
    /// written again through the general path, which defines it first, so filters compare it as a date.
    @Test func aDatePropertyFirstSeenInALaterChunkIsStoredAsADate() async throws {
        let context = try await ContextStoreKind.sqlite.makeContext()
        let todos = try await context.table(ContextTodo.self)
        var batch = Self.batch()
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        batch[Self.batchSize - 1].due = due

        try await todos.insert(contentsOf: batch)

        let late = try await todos.query().filter(Column("due") > Date(timeIntervalSince1970: 1_700_000_000))
            .fetchAll()
        #expect(late.map(\.id) == [batch[Self.batchSize - 1].id])
        #expect(late.first?.due == due)
        #expect(try await context.pendingOperationCount() == batch.count)
        try await context.close()
    }

    /// A real SQLITE_FULL from a page limit, hit a few chunks in: the error comes back typed, the
    /// encoding task stops, and the store keeps what it had.
    @Test func aFullDatabaseInALaterChunkThrowsFullAndKeepsEarlierRows() async throws {
        let path = ContextTemporaryFile.make().path
        let store = try SQLiteStore(path: path) { database in
            try database.execute("PRAGMA max_page_count = 120")
        }
        let context = try await SyncContext(store: store)
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "kept", text: "before"))
        let before = try await ContextSnapshot.take(context)
        let batch = (0..<Self.batchSize).map {
            ContextTodo(id: "big\($0)", text: String(repeating: "y", count: 300))
        }

        await #expect {
            try await todos.insert(contentsOf: batch)
        } throws: { error in
            if case SyncError.store(.full) = error { return true }
            return false
        }
        #expect(try await ContextSnapshot.take(context) == before)
        try await todos.insert(ContextTodo(id: "after", text: "small"))
        #expect(try await context.pendingOperationCount() == 2)
        try await context.close()
    }

    /// The chunks after the first are encoded on the shared pool even when the caller runs on the store's
    /// own thread, which waits for them: encoding there would never finish.
    @Test(.timeLimit(.minutes(5)))
    func aCallerOnTheStoresExecutorHasTheLaterChunksEncodedOnTheSharedPool() async throws {
        let store = try SQLiteStore(path: ContextTemporaryFile.make().path)
        let context = try await SyncContext(store: store)
        let notes = try await context.table(ThreadRecordingNote.self)
        let recorder = ThreadRecordingNote.Recorder()
        let batch = (0..<Self.batchSize).map { ThreadRecordingNote(id: "n\($0)", recorder: recorder) }

        try await withTaskExecutorPreference(store.preferredTaskExecutor) {
            _ = try await notes.insert(contentsOf: batch)
        }

        let markers = recorder.markers
        let chunk = SyncTable<ThreadRecordingNote>.firstStreamedChunkSize
        #expect(markers.count == batch.count)
        #expect(markers.prefix(chunk).allSatisfy { $0 == "SyncTablesStore" }, "the first chunk: the caller")
        #expect(markers.dropFirst(chunk).allSatisfy { $0 != "SyncTablesStore" }, "the rest: the shared pool")
        #expect(try await context.pendingOperationCount() == batch.count)
        try await context.close()
    }

    @Test func aBatchOnTheMemoryStoreIsNotStreamedAndGivesTheSameOutcome() async throws {
        let context = try await ContextStoreKind.memory.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let batch = Self.batch()
        try await todos.insert(contentsOf: batch)
        #expect(try await context.pendingOperations().map(\.itemId) == batch.map(\.id))
        var clashing = Self.batch(prefix: "j")
        clashing[Self.batchSize - 1].id = "i0"
        await #expect(
            throws: SyncError.pendingOperationConflict(
                table: "ContextTodo", id: "i0", existing: .insert, attempted: .insert)
        ) {
            try await todos.insert(contentsOf: clashing)
        }
        #expect(try await todos.query().fetchCount() == batch.count)
    }
}

/// An item that records on which thread each instance was encoded, in encoding order.
private struct ThreadRecordingNote: SyncItem {
    final class Recorder: Sendable {
        private let recorded = LockedState<[String?]>([])
        func record() { recorded.withLock { $0.append(currentThreadMarker()) } }
        var markers: [String?] { recorded.withLock { $0 } }
    }

    var id: String
    let recorder: Recorder?

    init(id: String, recorder: Recorder) {
        self.id = id
        self.recorder = recorder
    }

    enum CodingKeys: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .id)
        recorder = nil
    }

    func encode(to encoder: any Encoder) throws {
        recorder?.record()
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
    }
}
