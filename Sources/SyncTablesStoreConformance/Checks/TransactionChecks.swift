import SyncTables

/// Atomic writes and isolation.
enum TransactionChecks {
    struct Abort: Error {}

    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "a write whose body throws midway changes nothing") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: [Build.object(["id": .string("keep"), "v": .integer(1)])])
            do {
                try await store.write { transaction in
                    try transaction.upsert(table: "T", items: [Build.object(["id": .string("new")])])
                    try transaction.upsert(
                        table: "T", items: [Build.object(["id": .string("keep"), "v": .integer(2)])])
                    try transaction.delete(table: "T", ids: ["keep"])
                    try transaction.defineTable(TableDefinition(name: "Other"))
                    try transaction.upsert(
                        table: "T", items: [Build.object(["id": .string("x"), "brandNew": .integer(1)])])
                    throw Abort()
                }
                throw ConformanceFailure("the body's error was not rethrown")
            } catch is Abort {
                // expected
            }
            try Expect.equal(
                try await store.read(StoreQuery(table: "T")),
                [Build.object(["id": .string("keep"), "v": .integer(1)])], "rows")
            try Expect.equal(try await store.tableDefinitions().map(\.name), ["T"], "no table from the failed write")
            // The failed write's new property must not confuse later writes and filters.
            try await store.write {
                try $0.upsert(table: "T", items: [Build.object(["id": .string("y"), "brandNew": .integer(7)])])
            }
            let query = StoreQuery(table: "T", filter: .comparison(.equal, .property("brandNew"), .value(.integer(7))))
            try Expect.equal(Build.ids(try await store.read(query)), ["y"], "later write after rollback")
        },
        StoreConformanceCheck(name: "emptying every table in one write is all or nothing and keeps the tables") {
            makeStore in
            // What a sign-out wipe does: every table's rows go in one transaction, the tables stay.
            let store = try await makeStore()
            for name in ["A", "B", "C"] {
                try await Build.table(
                    store, name, items: (0..<20).map { Build.object(["id": .string("\(name)\($0)")]) })
            }
            do {
                try await store.write { transaction in
                    for name in ["A", "B", "C"] { try transaction.delete(StoreQuery(table: name)) }
                    throw Abort()
                }
                throw ConformanceFailure("the body's error was not rethrown")
            } catch is Abort {
                // expected
            }
            for name in ["A", "B", "C"] {
                try Expect.equal(
                    try await store.count(StoreQuery(table: name)), 20, "rows of \(name) after the rollback")
            }
            let removed = try await store.write { transaction in
                try ["A", "B", "C"].reduce(0) { $0 + (try transaction.delete(StoreQuery(table: $1))) }
            }
            try Expect.equal(removed, 60, "rows removed")
            for name in ["A", "B", "C"] {
                try Expect.equal(try await store.count(StoreQuery(table: name)), 0, "rows of \(name)")
            }
            try Expect.equal(
                Set(try await store.tableDefinitions().map(\.name)).isSuperset(of: ["A", "B", "C"]), true,
                "the emptied tables stay defined")
            try await store.write { try $0.upsert(table: "A", items: [Build.object(["id": .string("next")])]) }
            try Expect.equal(try await store.count(StoreQuery(table: "A")), 1, "a write after the wipe")
        },
        StoreConformanceCheck(name: "a store error inside a write rolls back everything before it") { makeStore in
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T"))
            do {
                try await store.write { transaction in
                    try transaction.upsert(table: "T", items: [Build.object(["id": .string("a")])])
                    try transaction.upsert(table: "T", items: [Build.object(["text": .string("no id")])])
                }
                throw ConformanceFailure("missingID was not thrown")
            } catch StoreError.missingID {
                // expected
            }
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 0, "rows")
        },
        StoreConformanceCheck(name: "reads inside a write see the write's own changes and its result comes back") {
            makeStore in
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T"))
            let seen = try await store.write { transaction -> Int in
                try transaction.upsert(table: "T", items: [Build.object(["id": .string("a"), "n": .integer(1)])])
                let found = try transaction.lookup(table: "T", id: "a")
                try Expect.equal(found?["n"], .integer(1), "lookup inside the write")
                try transaction.delete(table: "T", ids: ["a"])
                try transaction.upsert(
                    table: "T", items: [Build.object(["id": .string("b")]), Build.object(["id": .string("c")])])
                return try transaction.count(StoreQuery(table: "T"))
            }
            try Expect.equal(seen, 2, "count inside the write")
            try Expect.equal(Build.ids(try await store.read(StoreQuery(table: "T"))), ["b", "c"], "committed rows")
        },
        StoreConformanceCheck(name: "a transaction handle used after its write ends throws transactionFinished") {
            makeStore in
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T"))
            let escaped = UncheckedBox<any StoreTransaction>()
            try await store.write { escaped.value = $0 }
            guard let transaction = escaped.value else { throw ConformanceFailure("no transaction captured") }
            try await Expect.throwsError(.transactionFinished, "upsert through an ended transaction") {
                try transaction.upsert(table: "T", items: [Build.object(["id": .string("late")])])
            }
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 0, "rows")
        },
        StoreConformanceCheck(name: "concurrent reads never see half of a large write") { makeStore in
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T"))
            let rounds = 4
            let perRound = 1000
            try await withThrowingTaskGroup(of: [Int].self) { group in
                group.addTask {
                    for round in 0..<rounds {
                        try await store.write { transaction in
                            for index in 0..<perRound {
                                let id = "r\(round)-\(index)"
                                try transaction.upsert(table: "T", items: [Build.object(["id": .string(id)])])
                            }
                        }
                    }
                    return []
                }
                group.addTask {
                    var counts: [Int] = []
                    for _ in 0..<200 {
                        counts.append(try await store.count(StoreQuery(table: "T")))
                        await Task.yield()
                    }
                    return counts
                }
                for try await counts in group {
                    for count in counts where count % perRound != 0 {
                        throw ConformanceFailure("a read saw \(count) rows, a partial write")
                    }
                }
            }
            try Expect.equal(try await store.count(StoreQuery(table: "T")), rounds * perRound, "final rows")
        },
    ]
}
