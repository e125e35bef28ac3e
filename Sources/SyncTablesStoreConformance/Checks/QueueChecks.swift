import SyncTables

/// The operation queue storage every store provides (its own, or the default JSON rows of `__operations`).
enum QueueChecks {
    struct Abort: Error {}

    static func operation(
        _ sequence: Int, _ table: String, _ itemId: String, kind: OperationKind = .insert,
        item: JSONObject? = nil, version: Int = 1
    ) -> PendingOperation {
        PendingOperation(
            id: "op-\(sequence)", sequence: sequence, kind: kind, table: table, itemId: itemId, item: item,
            state: .pending, version: version, createdAt: Timestamp(ticks: 638_000_000_000_000_000 + Int64(sequence)),
            attempts: 0)
    }

    /// A queue of five operations over two tables, saved out of order.
    static func seeded(_ makeStore: @Sendable () async throws -> any LocalStore) async throws -> any LocalStore {
        let store = try await makeStore()
        try await store.write { transaction in
            try transaction.prepareOperationQueue()
            try transaction.saveQueuedOperations([
                operation(5, "B", "b2"),
                operation(1, "A", "a1"),
                operation(
                    3, "B", "b1", kind: .delete, item: Build.object(["id": .string("b1"), "text": .string("x'\u{0}y")])),
                operation(2, "A", "a2", kind: .update),
                operation(4, "A", "a|3"),
            ])
        }
        return store
    }

    static func sequences(_ operations: [PendingOperation]) -> [Int] { operations.map(\.sequence) }

    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "queued operations round-trip every field and come back in sequence order") {
            makeStore in
            let store = try await seeded(makeStore)
            let all = try await store.write { try $0.queuedOperations(.all) }
            try Expect.equal(sequences(all), [1, 2, 3, 4, 5], "order")
            try Expect.equal(
                all[2],
                operation(
                    3, "B", "b1", kind: .delete, item: Build.object(["id": .string("b1"), "text": .string("x'\u{0}y")])),
                "a delete with its item")
            let found = try await store.write { try $0.queuedOperation(table: "A", itemId: "a|3") }
            try Expect.equal(found, operation(4, "A", "a|3"), "lookup by table and item id")
            let absent = try await store.write { try $0.queuedOperation(table: "a", itemId: "a1") }
            try Expect.equal(absent, nil, "table names match exactly")
            try Expect.equal(try await store.write { try $0.highestQueuedSequence() }, 5, "highest sequence")
        },
        StoreConformanceCheck(name: "queue selections filter by table, item, operation id and sequence, then limit") {
            makeStore in
            let store = try await seeded(makeStore)
            func select(_ selection: OperationSelection) async throws -> [Int] {
                sequences(try await store.write { try $0.queuedOperations(selection) })
            }
            func count(_ selection: OperationSelection) async throws -> Int {
                try await store.write { try $0.countQueuedOperations(selection) }
            }
            try Expect.equal(try await select(OperationSelection(tables: ["A"])), [1, 2, 4], "one table")
            try Expect.equal(try await select(OperationSelection(tables: ["A", "B"], limit: 2)), [1, 2], "limit")
            try Expect.equal(
                try await select(OperationSelection(tables: ["B"], itemIds: ["b2", "b1", "zz"])), [3, 5], "item ids")
            try Expect.equal(try await select(OperationSelection(itemIds: ["a2"])), [2], "item ids of any table")
            try Expect.equal(try await select(OperationSelection(operationId: "op-4")), [4], "operation id")
            try Expect.equal(try await select(OperationSelection(afterSequence: 2, limit: 1)), [3], "next after 2")
            try Expect.equal(
                try await select(OperationSelection(tables: ["A"], afterSequence: 2)), [4], "table after 2")
            try Expect.equal(try await count(.all), 5, "count all")
            try Expect.equal(try await count(OperationSelection(tables: ["B"])), 2, "count one table")
            try Expect.equal(try await count(OperationSelection(tables: ["A"], limit: 2)), 2, "count with limit")
            try Expect.equal(try await count(OperationSelection(tables: ["C"])), 0, "count of an empty table")
            try Expect.equal(try await count(OperationSelection(tables: [])), 0, "count of no tables")
            try Expect.equal(try await select(OperationSelection(tables: [])), [], "no tables")
        },
        StoreConformanceCheck(name: "saving replaces an item's operation and removing deletes only the named items") {
            makeStore in
            let store = try await seeded(makeStore)
            try await store.write { transaction in
                let changed = operation(
                    2, "A", "a2", kind: .delete, item: Build.object(["id": .string("a2")]), version: 3)
                try transaction.saveQueuedOperations([changed])
                try transaction.removeQueuedOperations([operation(1, "A", "a1"), operation(9, "B", "absent")])
            }
            let all = try await store.write { try $0.queuedOperations(.all) }
            try Expect.equal(sequences(all), [2, 3, 4, 5], "after save and remove")
            try Expect.equal(all.first?.kind, .delete, "replaced kind")
            try Expect.equal(all.first?.version, 3, "replaced version")
            try Expect.equal(all.first?.item, Build.object(["id": .string("a2")]), "replaced item")
            try await store.write { try $0.removeQueuedOperations(all) }
            try Expect.equal(try await store.write { try $0.highestQueuedSequence() }, nil, "empty queue")
        },
        StoreConformanceCheck(
            name: "queueNewOperations adds operations, and changes nothing when one item is queued or repeated"
        ) { makeStore in
            let store = try await seeded(makeStore)
            let added = try await store.write {
                try $0.queueNewOperations([operation(6, "A", "a4"), operation(7, "C", "a1")])
            }
            try Expect.isTrue(added, "items with nothing queued (the same id in another table counts as another item)")
            try Expect.equal(
                sequences(try await store.write { try $0.queuedOperations(.all) }), [1, 2, 3, 4, 5, 6, 7], "added")
            let clash = try await store.write {
                try $0.queueNewOperations([operation(8, "A", "a5"), operation(9, "B", "b1", kind: .update)])
            }
            try Expect.isTrue(!clash, "an item with an operation queued is refused")
            let repeated = try await store.write {
                try $0.queueNewOperations([operation(10, "D", "d"), operation(11, "D", "d")])
            }
            try Expect.isTrue(!repeated, "a repeated item is refused")
            let all = try await store.write { try $0.queuedOperations(.all) }
            try Expect.equal(sequences(all), [1, 2, 3, 4, 5, 6, 7], "nothing of the refused batches is queued")
            try Expect.equal(all[2].kind, .delete, "the queued operation is unchanged")
        },
        StoreConformanceCheck(
            name: "queueNewOperations of hundreds of operations queues them all, and refuses a late clash"
        ) { makeStore in
            let store = try await seeded(makeStore)
            let batch = (0..<200).map { operation(10 + $0, "C", "c\($0)") }
            try Expect.isTrue(try await store.write { try $0.queueNewOperations(batch) }, "new items")
            let queued = try await store.write { try $0.queuedOperations(OperationSelection(tables: ["C"])) }
            try Expect.equal(queued, batch, "every operation, in order, every field")
            let more = (200..<400).map { operation(10 + $0, "C", "c\($0)") }
            let clash = Build.replacing(more, at: 199, with: operation(409, "A", "a1"))
            try Expect.isTrue(!(try await store.write { try $0.queueNewOperations(clash) }), "a queued item is refused")
            let repeated = Build.replacing(more, at: 150, with: operation(360, "C", "c201"))
            try Expect.isTrue(
                !(try await store.write { try $0.queueNewOperations(repeated) }), "a repeated item is refused")
            try Expect.equal(
                try await store.write { try $0.countQueuedOperations(.all) }, 205, "nothing of the refused batches")
        },
        StoreConformanceCheck(name: "a write that throws leaves the queue as it was") { makeStore in
            let store = try await seeded(makeStore)
            do {
                try await store.write { transaction in
                    try transaction.saveQueuedOperations([operation(6, "C", "c1")])
                    try transaction.removeQueuedOperations([operation(1, "A", "a1")])
                    throw Abort()
                }
                throw ConformanceFailure("the body's error was not rethrown")
            } catch is Abort {
                // expected
            }
            let all = try await store.write { try $0.queuedOperations(.all) }
            try Expect.equal(sequences(all), [1, 2, 3, 4, 5], "queue after the failed write")
        },
    ]
}
