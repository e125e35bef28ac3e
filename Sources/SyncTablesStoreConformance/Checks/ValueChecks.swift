import SyncTables

/// Values and property names survive exactly, whatever they contain.
enum ValueChecks {
    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "strings with quotes, NUL, emoji and control characters round-trip exactly") {
            makeStore in
            let store = try await makeStore()
            let texts = [
                "it's", "say \"hi\"", "back\\slash", "nul\u{0}inside", "\u{0}", "tab\tnew\nline\r",
                "\u{1F600}\u{1F1EB}\u{1F1F7}",
                "caf\u{E9}", "cafe\u{301}", "", " ", "'; DROP TABLE T; --", "\u{7F}\u{80}\u{FEFF}", "\u{10FFFF}",
            ]
            let items = texts.enumerated().map {
                Build.object(["id": .string("s\($0.offset)"), "text": .string($0.element)])
            }
            try await Build.table(store, "T", items: items)
            for item in items {
                guard case .string(let id)? = item["id"] else { continue }
                try Expect.equal(try await store.lookup(table: "T", id: id), item, "round trip of \(item)")
                let query = StoreQuery(
                    table: "T", filter: .comparison(.equal, .property("text"), .value(item["text"] ?? .null)))
                try Expect.equal(Build.ids(try await store.read(query)), [id], "filter finds \(item)")
            }
        },
        StoreConformanceCheck(
            name: "long strings round-trip through lookup, read, readJSON, filters, ordering and replacement"
        ) { makeStore in
            // A store may keep long strings apart from the rest of a row (SQLiteStore keeps those of 16 bytes
            // and more in their column only); every read must give back the same object.
            let store = try await makeStore()
            try await store.defineTable(TableDefinition(name: "T", dateProperties: ["due"]))
            let long = String(repeating: "caf\u{E9} \"quoted\" it's\u{0}", count: 12)
            let fifteen = String(repeating: "x", count: 15)
            let sixteen = String(repeating: "y", count: 16)
            let longDate = "2024-05-01T10:00:00." + String(repeating: "0", count: 60) + "Z"
            let items = [
                Build.object(["id": .string("a"), "body": .string(long), "n": .integer(1)]),
                Build.object(["id": .string("b"), "body": .string(fifteen), "n": .integer(2)]),
                Build.object(["id": .string("c"), "body": .string(sixteen), "due": .string(longDate)]),
                Build.object(["id": .string("d"), "nested": .object(JSONObject(["body": .string(long)]))]),
                Build.object(["id": .string("e"), "x; DROP TABLE T": .string(long + "e"), "body": .null]),
            ]
            try await store.write { try $0.upsert(table: "T", items: Array(items.prefix(2))) }
            try Expect.isTrue(
                try await store.write { try $0.insertNew(table: "T", items: Array(items.dropFirst(2))) }, "new ids")
            let ordered = StoreQuery(table: "T", ordering: [SortDescriptor("id")])
            try Expect.equal(try await store.read(ordered), items, "read")
            try Expect.equal(try await store.readJSON(ordered), items.map(\.jsonBytes), "readJSON")
            for item in items {
                guard case .string(let id)? = item["id"] else { continue }
                try Expect.equal(try await store.lookup(table: "T", id: id), item, "lookup \(id)")
            }
            let equal = StoreQuery(table: "T", filter: .comparison(.equal, .property("body"), .value(.string(long))))
            try Expect.equal(Build.ids(try await store.read(equal)), ["a"], "equality on a long string")
            let contains = StoreQuery(
                table: "T", filter: .function(.substringOf, [.value(.string("quoted")), .property("body")]))
            try Expect.equal(Build.ids(try await store.read(contains)), ["a"], "substringof on a long string")
            let byBody = StoreQuery(
                table: "T", ordering: [SortDescriptor("body", ascending: false), SortDescriptor("id")])
            try Expect.equal(Build.ids(try await store.read(byBody)), ["c", "b", "a", "d", "e"], "ordering")

            // Replacing rows: a long string made short, dropped, or changed.
            let replaced = [
                Build.object(["id": .string("a"), "body": .string("short now"), "n": .integer(1)]),
                Build.object(["id": .string("b"), "body": .string(long + "b"), "n": .integer(2)]),
                Build.object(["id": .string("c")]),
            ]
            try await store.write { try $0.upsert(table: "T", items: replaced) }
            let after = replaced + Array(items.dropFirst(3))
            try Expect.equal(try await store.read(ordered), after, "read after replacement")
            try Expect.equal(try await store.readJSON(ordered), after.map(\.jsonBytes), "readJSON after replacement")
            try Expect.equal(try await store.lookup(table: "T", id: "b"), replaced[1], "lookup after replacement")
            try Expect.equal(try await store.count(equal), 0, "the old long string no longer filters")
        },
        StoreConformanceCheck(name: "readJSON gives each selected row as compact sorted JSON, in query order") {
            makeStore in
            let store = try await makeStore()
            let items = [
                Build.object([
                    "id": .string("b"), "text": .string("say \"hi\"\u{0}\u{1F600}"), "n": .integer(-7),
                    "x": .double(0.5), "done": .bool(true),
                    "nested": .object(JSONObject(["z": .null, "a": .array([1, "two"])])),
                ]),
                Build.object(["id": .string("a"), "n": .integer(3)]),
                Build.object(["id": .string("c"), "n": .integer(5), "text": .string("caf\u{E9}")]),
            ]
            try await Build.table(store, "T", items: items)
            let query = StoreQuery(
                table: "T", filter: .comparison(.greaterThan, .property("n"), .value(.integer(0))),
                ordering: [SortDescriptor("n", ascending: false)])
            let texts = try await store.readJSON(query)
            try Expect.equal(texts, try await store.read(query).map(\.jsonBytes), "the rows read encode the same")
            try Expect.equal(
                texts.map { String(decoding: $0, as: UTF8.self) },
                [#"{"id":"c","n":5,"text":"café"}"#, #"{"id":"a","n":3}"#], "text and order")
            let all = try await store.readJSON(StoreQuery(table: "T", ordering: [SortDescriptor("id")]))
            try Expect.equal(
                try all.map { try JSONObject(parsing: $0) }, [items[1], items[0], items[2]], "parses back")
        },
        StoreConformanceCheck(name: "a string of several megabytes round-trips exactly") { makeStore in
            let store = try await makeStore()
            let huge = String(repeating: "0123456789abcdef\u{E9}\u{1F600}", count: 150_000)
            let item = Build.object(["id": .string("big"), "text": .string(huge)])
            try await Build.table(store, "T", items: [item])
            try Expect.isTrue(try await store.lookup(table: "T", id: "big") == item, "huge string unchanged")
        },
        StoreConformanceCheck(name: "numbers, booleans, nulls, arrays and objects round-trip exactly") { makeStore in
            let store = try await makeStore()
            let item = Build.object([
                "id": .string("a"), "max": .integer(.max), "min": .integer(.min), "zero": .integer(0),
                "tenth": .double(0.1), "big": .double(1.5e300), "tiny": .double(-2.5e-300), "two": .double(2.0),
                "yes": .bool(true), "no": .bool(false), "nothing": .null,
                "list": .array([.integer(1), .string("x"), .null, .array([]), .object(JSONObject())]),
                "nested": .object(Build.object(["b": .integer(1), "a": .object(Build.object(["z": .bool(true)]))])),
                "empty": .object(JSONObject()),
            ])
            try await Build.table(store, "T", items: [item])
            try Expect.equal(try await store.lookup(table: "T", id: "a"), item, "round trip")
            try Expect.equal(try await store.read(StoreQuery(table: "T")), [item], "read")
        },
        StoreConformanceCheck(name: "property names with SQL, quotes, brackets and case variants round-trip and filter")
        {
            makeStore in
            let store = try await makeStore()
            let names = [
                "; DROP TABLE T; --", "a\"b", "a'b", "[x]", "`y`", "Text", "text", "TEXT", "_json", "id ", "ID", "c1",
                "rowid", "", " ", "\u{1F600}", "caf\u{E9}", "nul\u{0}x", "a.b", "__proto__",
            ]
            var item = Build.object(["id": .string("a")])
            for (index, name) in names.enumerated() { item[name] = .integer(Int64(index)) }
            let other = Build.object(["id": .string("b"), "Text": .string("only b")])
            try await Build.table(store, "T", items: [item, other])
            try Expect.equal(try await store.lookup(table: "T", id: "a"), item, "round trip")
            for (index, name) in names.enumerated() {
                let query = StoreQuery(
                    table: "T", filter: .comparison(.equal, .property(name), .value(.integer(Int64(index)))))
                try Expect.equal(Build.ids(try await store.read(query)), ["a"], "filter on \(name.debugDescription)")
                let ordered = try await store.read(
                    StoreQuery(table: "T", ordering: [SortDescriptor(name, ascending: false)]))
                // Text sorts after numbers, so b's "Text" string comes first in descending order.
                try Expect.equal(
                    Build.ids(ordered), name == "Text" ? ["b", "a"] : ["a", "b"], "order by \(name.debugDescription)")
            }
            let textOnlyB = StoreQuery(
                table: "T", filter: .comparison(.equal, .property("Text"), .value(.string("only b"))))
            try Expect.equal(
                Build.ids(try await store.read(textOnlyB)), ["b"], "Text and text are different properties")
        },
        StoreConformanceCheck(name: "items with 1500 properties are stored, filtered and replaced") { makeStore in
            let store = try await makeStore()
            var wide = Build.object(["id": .string("wide")])
            for index in 0..<1500 { wide["p\(index)"] = .integer(Int64(index)) }
            try await Build.table(
                store, "T", items: [wide, Build.object(["id": .string("narrow"), "p1499": .integer(0)])])
            try Expect.equal(try await store.lookup(table: "T", id: "wide"), wide, "round trip")
            let last = StoreQuery(table: "T", filter: .comparison(.equal, .property("p1499"), .value(.integer(1499))))
            try Expect.equal(Build.ids(try await store.read(last)), ["wide"], "filter on the last property")
            try await store.write {
                try $0.upsert(table: "T", items: [Build.object(["id": .string("wide"), "p0": .integer(7)])])
            }
            try Expect.equal(try await store.count(last), 0, "a replaced row loses its old properties")
            // Every tenth property, so that each group of columns a wide store may split the row into is hit.
            for index in stride(from: 1, to: 1500, by: 10) {
                let query = StoreQuery(
                    table: "T", filter: .comparison(.equal, .property("p\(index)"), .value(.integer(Int64(index)))))
                try Expect.equal(try await store.count(query), 0, "p\(index) of the replaced row")
            }
            let kept = StoreQuery(table: "T", filter: .comparison(.equal, .property("p0"), .value(.integer(7))))
            try Expect.equal(Build.ids(try await store.read(kept)), ["wide"], "the new value")
        },
    ]
}
