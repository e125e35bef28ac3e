import SyncTables

/// Ordering, limit, offset and count.
enum OrderingChecks {
    private static func ids(_ store: any LocalStore, _ query: StoreQuery) async throws -> [String] {
        Build.ids(try await store.read(query))
    }

    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "without ordering rows come back in id order") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            try Expect.equal(try await ids(store, StoreQuery(table: FilterFixture.table)), FilterFixture.allIDs, "ids")
        },
        StoreConformanceCheck(name: "ascending order puts nulls first, then numbers, then text, ties by id") {
            makeStore in
            let store = try await FilterFixture.store(makeStore)
            let query = StoreQuery(table: FilterFixture.table, ordering: [SortDescriptor("n")])
            try Expect.equal(try await ids(store, query), ["h", "e", "d", "a", "b", "f", "j", "c", "i", "g"], "ids")
        },
        StoreConformanceCheck(name: "descending order reverses values but still breaks ties by ascending id") {
            makeStore in
            let store = try await FilterFixture.store(makeStore)
            let query = StoreQuery(table: FilterFixture.table, ordering: [SortDescriptor("n", ascending: false)])
            try Expect.equal(try await ids(store, query), ["g", "i", "c", "j", "b", "f", "a", "d", "e", "h"], "ids")
        },
        StoreConformanceCheck(name: "several sort keys apply in turn") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            let query = StoreQuery(
                table: FilterFixture.table,
                ordering: [SortDescriptor("done", ascending: false), SortDescriptor("text")])
            try Expect.equal(try await ids(store, query), ["d", "b", "g", "a", "c", "h", "f", "i", "e", "j"], "ids")
        },
        StoreConformanceCheck(name: "date properties order as instants, non-dates after them") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            let query = StoreQuery(table: FilterFixture.table, ordering: [SortDescriptor("due")])
            try Expect.equal(try await ids(store, query), ["d", "f", "g", "h", "i", "j", "e", "a", "b", "c"], "ids")
        },
        StoreConformanceCheck(name: "ordering by a missing property keeps id order") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            let query = StoreQuery(table: FilterFixture.table, ordering: [SortDescriptor("nope", ascending: false)])
            try Expect.equal(try await ids(store, query), FilterFixture.allIDs, "ids")
        },
        StoreConformanceCheck(name: "ordering by id descending") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            let query = StoreQuery(table: FilterFixture.table, ordering: [SortDescriptor("id", ascending: false)])
            try Expect.equal(try await ids(store, query), FilterFixture.allIDs.reversed(), "ids")
        },
        StoreConformanceCheck(name: "limit and offset page through the ordered rows") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            let ordering = [SortDescriptor("n")]
            let page = StoreQuery(table: FilterFixture.table, ordering: ordering, limit: 3, offset: 2)
            try Expect.equal(try await ids(store, page), ["d", "a", "b"], "page")
            let tail = StoreQuery(table: FilterFixture.table, ordering: ordering, offset: 8)
            try Expect.equal(try await ids(store, tail), ["i", "g"], "offset without limit")
            let beyond = StoreQuery(table: FilterFixture.table, ordering: ordering, limit: 5, offset: 50)
            try Expect.equal(try await ids(store, beyond), [], "offset past the end")
            let none = StoreQuery(table: FilterFixture.table, limit: 0)
            try Expect.equal(try await ids(store, none), [], "limit 0")
        },
        StoreConformanceCheck(name: "every page of every ordering is the same slice of the whole ordered result") {
            makeStore in
            // Paged reads may run other SQL than whole reads (SQLiteStore sorts only keys for a page).
            let store = try await FilterFixture.store(makeStore)
            let orderings: [[SortDescriptor]] = [
                [SortDescriptor("n")], [SortDescriptor("n", ascending: false)],
                [SortDescriptor("done", ascending: false), SortDescriptor("text")], [SortDescriptor("due")],
                [SortDescriptor("nope"), SortDescriptor("id", ascending: false)],
            ]
            let filters: [FilterExpression?] = [nil, .comparison(.notEqual, .property("n"), .value(.null))]
            for ordering in orderings {
                for filter in filters {
                    let whole = try await ids(
                        store, StoreQuery(table: FilterFixture.table, filter: filter, ordering: ordering))
                    for offset in [0, 1, 4, 9, 11] {
                        for limit in [0, 1, 3, 10] {
                            let page = StoreQuery(
                                table: FilterFixture.table, filter: filter, ordering: ordering, limit: limit,
                                offset: offset)
                            let expected = Array(whole.dropFirst(offset).prefix(limit))
                            try Expect.equal(
                                try await ids(store, page), expected, "\(ordering) offset \(offset) limit \(limit)")
                        }
                    }
                }
            }
        },
        StoreConformanceCheck(name: "count applies the filter, the offset and the limit") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            let notNull = FilterExpression.comparison(.notEqual, .property("n"), .value(.null))
            try Expect.equal(try await store.count(StoreQuery(table: FilterFixture.table)), 10, "all rows")
            try Expect.equal(
                try await store.count(StoreQuery(table: FilterFixture.table, filter: notNull)), 9, "filtered")
            let paged = StoreQuery(table: FilterFixture.table, filter: notNull, limit: 5, offset: 7)
            try Expect.equal(try await store.count(paged), 2, "filtered, offset 7, limit 5")
            try Expect.equal(try await store.count(StoreQuery(table: FilterFixture.table, limit: 0)), 0, "limit 0")
        },
    ]
}
