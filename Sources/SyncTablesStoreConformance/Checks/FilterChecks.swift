import SyncTables

/// Filters: every table-driven case, plus malformed queries.
enum FilterChecks {
    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "every filter case selects exactly its expected rows") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            var failures: [String] = []
            for filterCase in FilterCases.all {
                let query = StoreQuery(table: FilterFixture.table, filter: filterCase.filter)
                do {
                    let ids = Build.ids(try await store.read(query))
                    if ids != filterCase.expected {
                        failures.append("\(filterCase.name): expected \(filterCase.expected), got \(ids)")
                    }
                    let count = try await store.count(query)
                    if count != filterCase.expected.count {
                        failures.append("\(filterCase.name): count \(count), expected \(filterCase.expected.count)")
                    }
                } catch {
                    failures.append("\(filterCase.name): threw \(error)")
                }
            }
            if !failures.isEmpty {
                throw ConformanceFailure(
                    "\(failures.count) filter case(s) failed:\n" + failures.joined(separator: "\n"))
            }
        },
        StoreConformanceCheck(name: "a function with the wrong number of arguments throws invalidQuery") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            let filter = FilterExpression.function(.startsWith, [.property("text")])
            do {
                _ = try await store.read(StoreQuery(table: FilterFixture.table, filter: filter))
                throw ConformanceFailure("expected invalidQuery, nothing thrown")
            } catch StoreError.invalidQuery {
                // expected
            }
            try Expect.equal(try await store.count(StoreQuery(table: FilterFixture.table)), 10, "rows intact")
        },
        StoreConformanceCheck(name: "values that look like SQL are compared as plain values") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            for text in ["' OR 1=1 --", "\" OR \"\"=\"", "'); DROP TABLE Fixture; --", "%", "_", "*"] {
                let query = StoreQuery(
                    table: FilterFixture.table, filter: .comparison(.equal, .property("text"), .value(.string(text))))
                try Expect.equal(try await store.count(query), 0, "rows equal to \(text.debugDescription)")
                let prefix = StoreQuery(
                    table: FilterFixture.table,
                    filter: .function(.startsWith, [.property("text"), .value(.string(text))]))
                try Expect.equal(try await store.count(prefix), 0, "rows starting with \(text.debugDescription)")
            }
            try Expect.equal(try await store.count(StoreQuery(table: FilterFixture.table)), 10, "rows intact")
        },
        StoreConformanceCheck(name: "chains of thousands of and/or terms work") { makeStore in
            let store = try await FilterFixture.store(makeStore)
            var anyOf = FilterExpression.comparison(.equal, .property("n"), .value(.integer(-1)))
            var allOf = FilterExpression.comparison(.notEqual, .property("n"), .value(.null))
            for value in 0..<5000 {
                anyOf = .or(anyOf, .comparison(.equal, .property("n"), .value(.integer(Int64(value) * 10))))
                allOf = .and(allOf, .not(.comparison(.equal, .property("tag"), .value(.string("x\(value)")))))
            }
            let matches = StoreQuery(table: FilterFixture.table, filter: anyOf)
            try Expect.equal(Build.ids(try await store.read(matches)), ["c", "d", "i"], "or chain")
            let everyNumber = StoreQuery(table: FilterFixture.table, filter: allOf)
            try Expect.equal(try await store.count(everyNumber), 9, "and chain")
        },
    ]
}
