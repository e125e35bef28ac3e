import SyncTables

/// Defining, extending and naming tables.
enum TableChecks {
    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "defining a table creates an empty readable table") { makeStore in
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "TodoItem"))
            try Expect.equal(try await store.read(StoreQuery(table: "TodoItem")).count, 0, "rows of a new table")
            let names = try await store.tableDefinitions().map(\.name)
            try Expect.isTrue(names.contains("TodoItem"), "definitions \(names) list TodoItem")
        },
        StoreConformanceCheck(name: "defining a table again extends it and keeps its rows") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "TodoItem", items: [Build.object(["id": .string("a")])])
            try await store.defineTable(TableDefinition(name: "TodoItem", dateProperties: ["due"], indexes: [["text"]]))
            try await store.defineTable(TableDefinition(name: "TodoItem", indexes: [["done", "text"]]))
            let definition = try await store.tableDefinitions().first { $0.name == "TodoItem" }
            try Expect.isTrue(
                definition?.dateProperties.contains("due") == true,
                "date property kept: \(String(describing: definition))")
            try Expect.equal(definition?.indexes ?? [], [["text"], ["done", "text"]], "indexes accumulate")
            try Expect.equal(
                try await store.lookup(table: "TodoItem", id: "a"), Build.object(["id": .string("a")]), "row kept")
        },
        StoreConformanceCheck(name: "table names are case-insensitive") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "TodoItem", items: [Build.object(["id": .string("a")])])
            try await store.defineTable(TableDefinition(name: "todoitem"))
            try Expect.equal(try await store.count(StoreQuery(table: "TODOITEM")), 1, "rows seen through another case")
            try Expect.equal(try await store.tableDefinitions().count, 1, "one table")
        },
        StoreConformanceCheck(name: "a 128-character table name is accepted") { makeStore in
            let store = try await makeStore()
            let name = "T" + String(repeating: "x", count: 127)
            try await Build.table(store, name, items: [Build.object(["id": .string("a")])])
            try Expect.equal(try await store.count(StoreQuery(table: name)), 1, "rows in the long-named table")
        },
        StoreConformanceCheck(name: "invalid table names are refused and leave the store intact") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "y", items: [Build.object(["id": .string("keep")])])
            for name in invalidNames {
                try await Expect.throwsError(.invalidTableName(name), "define \(name.debugDescription)") {
                    try await store.defineTable(TableDefinition(name: name))
                }
                try await Expect.throwsError(.invalidTableName(name), "read \(name.debugDescription)") {
                    _ = try await store.read(StoreQuery(table: name))
                }
                try await Expect.throwsError(.invalidTableName(name), "upsert into \(name.debugDescription)") {
                    try await store.write { try $0.upsert(table: name, items: [Build.object(["id": .string("x")])]) }
                }
                try await Expect.throwsError(.invalidTableName(name), "lookup in \(name.debugDescription)") {
                    _ = try await store.lookup(table: name, id: "x")
                }
            }
            try Expect.equal(try await store.tableDefinitions().map(\.name), ["y"], "only the valid table exists")
            try Expect.equal(try await store.lookup(table: "y", id: "keep")?["id"], .string("keep"), "row intact")
        },
        StoreConformanceCheck(name: "using a table that was never defined throws unknownTable") { makeStore in
            let store = try await makeStore()
            try await Expect.throwsError(.unknownTable("Nope"), "read") {
                _ = try await store.read(StoreQuery(table: "Nope"))
            }
            try await Expect.throwsError(.unknownTable("Nope"), "count") {
                _ = try await store.count(StoreQuery(table: "Nope"))
            }
            try await Expect.throwsError(.unknownTable("Nope"), "lookup") {
                _ = try await store.lookup(table: "Nope", id: "a")
            }
            try await Expect.throwsError(.unknownTable("Nope"), "upsert") {
                try await store.write { try $0.upsert(table: "Nope", items: [Build.object(["id": .string("a")])]) }
            }
            try await Expect.throwsError(.unknownTable("Nope"), "delete") {
                _ = try await store.write { try $0.delete(table: "Nope", ids: ["a"]) }
            }
        },
        StoreConformanceCheck(name: "new properties extend a table and old rows still read and filter") { makeStore in
            let store = try await makeStore()
            try await Build.table(store, "T", items: [Build.object(["id": .string("old"), "a": .integer(1)])])
            try await store.write {
                try $0.upsert(
                    table: "T", items: [Build.object(["id": .string("new"), "a": .integer(2), "b": .string("x")])])
            }
            let bIsNull = StoreQuery(table: "T", filter: .comparison(.equal, .property("b"), .value(.null)))
            try Expect.equal(Build.ids(try await store.read(bIsNull)), ["old"], "old row has no b")
            let aIsOne = StoreQuery(table: "T", filter: .comparison(.equal, .property("a"), .value(.integer(1))))
            try Expect.equal(Build.ids(try await store.read(aIsOne)), ["old"], "old values still filter")
            try Expect.equal(
                try await store.lookup(table: "T", id: "old"), Build.object(["id": .string("old"), "a": .integer(1)]),
                "old row")
        },
        StoreConformanceCheck(name: "a date property declared later compares existing rows as instants") { makeStore in
            let store = try await makeStore()
            try await Build.table(
                store, "T",
                items: [
                    Build.object(["id": .string("a"), "due": .string("2024-05-01T12:00:00+02:00")]),
                    Build.object(["id": .string("b"), "due": .string("2024-05-01T11:00:00Z")]),
                ])
            try await store.defineTable(TableDefinition(name: "T", dateProperties: ["due"]))
            let ordered = try await store.read(StoreQuery(table: "T", ordering: [SortDescriptor("due")]))
            try Expect.equal(Build.ids(ordered), ["a", "b"], "ordered by instant, not by text")
            let filter = FilterExpression.comparison(
                .equal, .property("due"), .timestamp(Build.timestamp(seconds: 1_714_557_600)))
            try Expect.equal(
                Build.ids(try await store.read(StoreQuery(table: "T", filter: filter))), ["a"], "instant equality")
        },
    ]

    static let invalidNames = [
        "x; DROP TABLE y", "y\"", "\"y\"", "[y]", "`y`", "", String(repeating: "a", count: 129), "1abc", "a-b", "a b",
        "caf\u{E9}", "y--", "sqlite_master", "__synctables_columns", "a.b", "y'", "t\u{0}",
    ]
}
