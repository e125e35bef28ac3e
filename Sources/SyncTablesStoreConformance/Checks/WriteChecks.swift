import SyncTables

/// Upsert, lookup and delete.
enum WriteChecks {
    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "upsert inserts an item that lookup returns unchanged") { makeStore in
            let store = try await makeStore()
            let item = Build.object([
                "id": .string("a"), "text": .string("Buy milk"), "done": .bool(false), "n": .integer(3),
            ])
            try await Build.table(store, "T", items: [item])
            try Expect.equal(try await store.lookup(table: "T", id: "a"), item, "looked-up item")
            try Expect.equal(try await store.read(StoreQuery(table: "T")), [item], "read items")
        },
        StoreConformanceCheck(name: "upsert of an existing id replaces the whole row") { makeStore in
            let store = try await makeStore()
            try await Build.table(
                store, "T", items: [Build.object(["id": .string("a"), "text": .string("old"), "gone": .integer(1)])])
            let replacement = Build.object(["id": .string("a"), "text": .string("new")])
            try await store.write { try $0.upsert(table: "T", items: [replacement]) }
            try Expect.equal(try await store.lookup(table: "T", id: "a"), replacement, "replaced item")
            let gone = StoreQuery(table: "T", filter: .comparison(.equal, .property("gone"), .value(.integer(1))))
            try Expect.equal(try await store.count(gone), 0, "the dropped property no longer filters")
        },
        StoreConformanceCheck(name: "upsert of an existing id replaces it in a table whose rows only ever had an id") {
            makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: [Build.object(["id": .string("a")])])
            try await store.write { try $0.upsert(table: "T", items: [Build.object(["id": .string("a")])]) }
            try Expect.equal(try await store.read(StoreQuery(table: "T")), [Build.object(["id": .string("a")])], "rows")
        },
        StoreConformanceCheck(name: "insertNew stores new rows, and changes nothing when one id is stored or repeated")
        {
            makeStore in
            let store = try await makeStore()
            let stored = Build.object(["id": .string("a"), "text": .string("stored")])
            try await Build.table(store, "T", items: [stored])
            let fresh = [
                Build.object(["id": .string("b"), "text": .string("new"), "added": .integer(1)]),
                Build.object(["id": .string("c"), "text": .string("it's")]),
            ]
            try Expect.isTrue(try await store.write { try $0.insertNew(table: "T", items: fresh) }, "new ids")
            try Expect.equal(try await store.lookup(table: "T", id: "b"), fresh[0], "an inserted row")
            let clash = [
                Build.object(["id": .string("d"), "text": .string("first")]),
                Build.object(["id": .string("a"), "text": .string("clash"), "other": .bool(true)]),
            ]
            try Expect.isTrue(
                !(try await store.write { try $0.insertNew(table: "T", items: clash) }), "a stored id is refused")
            let repeated = [Build.object(["id": .string("e")]), Build.object(["id": .string("e"), "n": .integer(2)])]
            try Expect.isTrue(
                !(try await store.write { try $0.insertNew(table: "T", items: repeated) }), "a repeated id is refused")
            try Expect.equal(try await store.lookup(table: "T", id: "a"), stored, "the stored row is unchanged")
            try Expect.equal(
                try await store.read(StoreQuery(table: "T", ordering: [SortDescriptor("id")])).map { $0["id"] },
                [.string("a"), .string("b"), .string("c")], "nothing of the refused batches is stored")
            let other = StoreQuery(table: "T", filter: .comparison(.equal, .property("other"), .value(.bool(true))))
            try Expect.equal(try await store.count(other), 0, "the refused row does not filter either")
        },
        StoreConformanceCheck(
            name: "insertNew with serialized JSON stores the same rows, and refuses what insertNew refuses"
        ) { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: [Build.object(["id": .string("a")])])
            let fresh = [
                Build.object(["id": .string("b"), "text": .string("new"), "n": .integer(7)]),
                Build.object(["id": .string("c"), "nested": .object(JSONObject(["k": .array([.null, .bool(true)])]))]),
            ]
            try Expect.isTrue(
                try await store.write {
                    try $0.insertNew(table: "T", items: fresh, canonicalJSON: fresh.map(\.jsonBytes))
                },
                "new ids")
            try Expect.equal(try await store.lookup(table: "T", id: "b"), fresh[0], "a row from serialized JSON")
            try Expect.equal(try await store.lookup(table: "T", id: "c"), fresh[1], "a nested row")
            let seven = StoreQuery(table: "T", filter: .comparison(.equal, .property("n"), .value(.integer(7))))
            try Expect.equal(try await store.count(seven), 1, "its properties filter")
            let clash = [Build.object(["id": .string("d")]), Build.object(["id": .string("a"), "x": .integer(1)])]
            try Expect.isTrue(
                !(try await store.write {
                    try $0.insertNew(table: "T", items: clash, canonicalJSON: clash.map(\.jsonBytes))
                }),
                "a stored id is refused")
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 3, "nothing of the refused batch is stored")
            let unmatched = [Build.object(["id": .string("e"), "text": .string("own")])]
            try Expect.isTrue(
                try await store.write { try $0.insertNew(table: "T", items: unmatched, canonicalJSON: []) },
                "a list without one text per item is ignored")
            try Expect.equal(try await store.lookup(table: "T", id: "e"), unmatched[0], "the row as the item says")
        },
        StoreConformanceCheck(
            name: "insertNew of hundreds of items stores every row, adds columns met late, and refuses a late clash"
        ) { makeStore in
            // Large enough for a store that writes many rows per statement to use whole blocks and a rest.
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T"))
            let batch = (0..<300).map { index in
                var item = Build.object(["id": .string("i\(index)"), "n": .integer(Int64(index))])
                if index == 150 { item["late"] = .string("x'y") }
                if index.isMultiple(of: 7) { item["n"] = nil }
                return item
            }
            try Expect.isTrue(try await store.write { try $0.insertNew(table: "T", items: batch) }, "new ids")
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 300, "every row")
            try Expect.equal(try await store.lookup(table: "T", id: "i150"), batch[150], "the row with a new property")
            try Expect.equal(try await store.lookup(table: "T", id: "i299"), batch[299], "the last row")
            let late = StoreQuery(table: "T", filter: .comparison(.equal, .property("late"), .value(.string("x'y"))))
            try Expect.equal(Build.ids(try await store.read(late)), ["i150"], "the late property filters")
            let missing = StoreQuery(table: "T", filter: .comparison(.equal, .property("n"), .value(.null)))
            try Expect.equal(try await store.count(missing), 43, "absent properties read as null")

            let more = (300..<600).map { Build.object(["id": .string("i\($0)"), "m": .bool(true)]) }
            let clash = Build.replacing(more, at: 290, with: Build.object(["id": .string("i3")]))
            try Expect.isTrue(
                !(try await store.write { try $0.insertNew(table: "T", items: clash) }), "a stored id is refused")
            let repeated = Build.replacing(more, at: 260, with: more[5])
            try Expect.isTrue(
                !(try await store.write { try $0.insertNew(table: "T", items: repeated) }), "a repeated id is refused")
            let withoutID = Build.replacing(more, at: 100, with: Build.object(["m": .bool(false)]))
            try await Expect.throwsError(.missingID(table: "T"), "an item without an id") {
                _ = try await store.write { try $0.insertNew(table: "T", items: withoutID) }
            }
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 300, "nothing of the refused batches")
            let flagged = StoreQuery(table: "T", filter: .comparison(.equal, .property("m"), .value(.bool(true))))
            try Expect.equal(try await store.count(flagged), 0, "no refused row filters")
            try Expect.isTrue(try await store.write { try $0.insertNew(table: "T", items: more) }, "then all of them")
            try Expect.equal(try await store.count(flagged), 300, "the second batch")
        },
        StoreConformanceCheck(name: "lookup of an absent id returns nil") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: [Build.object(["id": .string("a")])])
            try Expect.isTrue(try await store.lookup(table: "T", id: "b") == nil, "absent id")
            try Expect.isTrue(try await store.lookup(table: "T", id: "A") == nil, "ids are case-sensitive")
        },
        StoreConformanceCheck(name: "items without a string id are refused and nothing of the batch is stored") {
            makeStore in
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T"))
            let bad: [JSONObject] = [
                Build.object(["text": .string("no id")]), Build.object(["id": .null]),
                Build.object(["id": .integer(5)]),
                Build.object(["id": .string("")]), Build.object(["id": .bool(true)]),
            ]
            for item in bad {
                try await Expect.throwsError(.missingID(table: "T"), "upsert \(item)") {
                    try await store.write {
                        try $0.upsert(table: "T", items: [Build.object(["id": .string("ok")]), item])
                    }
                }
            }
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 0, "rows after refused batches")
        },
        StoreConformanceCheck(name: "ids are case-sensitive and compared byte for byte") { makeStore in
            let store = try await makeStore()
            let ids = ["a", "A", "caf\u{E9}", "cafe\u{301}", "x'y", "x\"y", "; DROP TABLE T; --", "\u{1F600}"]
            try await Build.table(store, "T", items: ids.map { Build.object(["id": .string($0), "v": .string($0)]) })
            try Expect.equal(try await store.count(StoreQuery(table: "T")), ids.count, "every id is its own row")
            for id in ids {
                try Expect.equal(
                    try await store.lookup(table: "T", id: id)?["v"], .string(id), "lookup \(id.debugDescription)")
                let query = StoreQuery(table: "T", filter: .comparison(.equal, .property("id"), .value(.string(id))))
                try Expect.equal(Build.ids(try await store.read(query)), [id], "filter on id \(id.debugDescription)")
            }
        },
        StoreConformanceCheck(name: "delete by ids removes those rows, ignores absent ids and counts") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: ["a", "b", "c"].map { Build.object(["id": .string($0)]) })
            let deleted = try await store.write { try $0.delete(table: "T", ids: ["a", "c", "zz", "B"]) }
            try Expect.equal(deleted, 2, "deleted count")
            try Expect.equal(Build.ids(try await store.read(StoreQuery(table: "T"))), ["b"], "remaining rows")
        },
        StoreConformanceCheck(name: "delete by query removes the matching rows") { makeStore in
            let store = try await makeStore()
            try await Build.table(
                store, "T", items: (0..<10).map { Build.object(["id": .string("i\($0)"), "n": .integer(Int64($0))]) })
            let filter = FilterExpression.comparison(.greaterThanOrEqual, .property("n"), .value(.integer(5)))
            let deleted = try await store.write { try $0.delete(StoreQuery(table: "T", filter: filter)) }
            try Expect.equal(deleted, 5, "deleted count")
            try Expect.equal(
                Build.ids(try await store.read(StoreQuery(table: "T"))), ["i0", "i1", "i2", "i3", "i4"], "left")
        },
        StoreConformanceCheck(name: "delete by query with ordering and limit removes only the first rows") {
            makeStore in
            let store = try await makeStore()
            try await Build.table(
                store, "T",
                items: (0..<10).map { Build.object(["id": .string("i\($0)"), "n": .integer(Int64(9 - $0))]) })
            let query = StoreQuery(table: "T", ordering: [SortDescriptor("n")], limit: 3, offset: 1)
            let deleted = try await store.write { try $0.delete(query) }
            try Expect.equal(deleted, 3, "deleted count")
            let left = try await store.read(StoreQuery(table: "T", ordering: [SortDescriptor("n")]))
            try Expect.equal(Build.ids(left), ["i9", "i5", "i4", "i3", "i2", "i1", "i0"], "left in n order")
        },
        StoreConformanceCheck(name: "delete by query without a filter empties the table") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: (0..<5).map { Build.object(["id": .string("i\($0)")]) })
            let deleted = try await store.write { try $0.delete(StoreQuery(table: "T")) }
            try Expect.equal(deleted, 5, "deleted count")
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 0, "rows left")
        },
        StoreConformanceCheck(name: "a batch of thousands of items is stored in one write") { makeStore in
            let store = try await makeStore()
            let items = (0..<3000).map {
                Build.object(["id": .string("item\($0)"), "n": .integer(Int64($0)), "text": .string("t\($0)")])
            }
            try await Build.table(store, "T", items: items)
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 3000, "rows")
            try Expect.equal(try await store.lookup(table: "T", id: "item2999"), items[2999], "last item")
        },
        StoreConformanceCheck(name: "an isIn filter with thousands of values works") { makeStore in
            let store = try await makeStore()
            try await Build.table(
                store, "T",
                items: (0..<3000).map { Build.object(["id": .string("item\($0)"), "n": .integer(Int64($0))]) })
            let wanted = stride(from: 0, to: 3000, by: 2).map { FilterExpression.value(.string("item\($0)")) }
            let byID = StoreQuery(table: "T", filter: .isIn(.property("id"), wanted + [.value(.string("absent"))]))
            try Expect.equal(try await store.count(byID), 1500, "rows matched by id")
            let numbers = (0..<2000).map { FilterExpression.value(.integer(Int64($0) * 3)) }
            let byNumber = StoreQuery(table: "T", filter: .not(.isIn(.property("n"), numbers)))
            try Expect.equal(try await store.count(byNumber), 2000, "rows not in the number list")
        },
        StoreConformanceCheck(name: "delete by a query listing thousands of ids removes exactly those rows") {
            makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: (0..<3000).map { Build.object(["id": .string("item\($0)")]) })
            let doomed = (0..<3000).filter { $0 % 3 != 0 }.map { FilterExpression.value(.string("item\($0)")) }
            let deleted = try await store.write {
                try $0.delete(StoreQuery(table: "T", filter: .isIn(.property("id"), doomed)))
            }
            try Expect.equal(deleted, 2000, "deleted count")
            try Expect.equal(try await store.count(StoreQuery(table: "T")), 1000, "rows left")
            try Expect.isTrue(try await store.lookup(table: "T", id: "item3") != nil, "kept row")
            try Expect.isTrue(try await store.lookup(table: "T", id: "item4") == nil, "deleted row")
        },
        StoreConformanceCheck(name: "a closed store refuses further calls") { makeStore in
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T"))
            try await store.close()
            try await Expect.throwsError(.closed, "read after close") {
                _ = try await store.read(StoreQuery(table: "T"))
            }
            try await Expect.throwsError(.closed, "write after close") { try await store.write { _ in } }
        },
    ]
}
