import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Typed queries run against every store.
@Suite("Typed queries")
struct SyncQueryTests {
    private static let base = Date(timeIntervalSince1970: 1_700_000_000)

    private func seeded(_ kind: ContextStoreKind) async throws -> SyncTable<ContextTodo> {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(contentsOf: [
            ContextTodo(id: "a", text: "Buy milk", complete: false, priority: 2, due: Self.base),
            ContextTodo(
                id: "b", text: "buy bread", complete: true, priority: 1, due: Self.base.addingTimeInterval(3_600)),
            ContextTodo(id: "c", text: "Call mom", complete: false, priority: 2, due: nil),
            ContextTodo(
                id: "d", text: "Pay rent!", complete: true, priority: nil, due: Self.base.addingTimeInterval(-60)),
        ])
        return todos
    }

    private func ids(_ query: SyncQuery<ContextTodo>) async throws -> [String] {
        try await query.fetchAll().map(\.id)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func equalityOnBooleansStringsAndNumbers(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        #expect(try await ids(todos.query().filter(Column("complete") == false)) == ["a", "c"])
        #expect(try await ids(todos.query().filter(Column("text") == "Call mom")) == ["c"])
        #expect(try await ids(todos.query().filter(Column("priority") == 2)) == ["a", "c"])
        #expect(try await ids(todos.query().filter(Column("priority") != 2)) == ["b", "d"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func orderingComparisonsOnNumbers(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        #expect(try await ids(todos.query().filter(Column("priority") < 2)) == ["b"])
        #expect(try await ids(todos.query().filter(Column("priority") <= 2)) == ["a", "b", "c"])
        #expect(try await ids(todos.query().filter(Column("priority") > 1)) == ["a", "c"])
        #expect(try await ids(todos.query().filter(Column("priority") >= 1.5)) == ["a", "c"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func datesCompareAsInstants(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        #expect(try await ids(todos.query().filter(Column("due") < Self.base)) == ["d"])
        #expect(try await ids(todos.query().filter(Column("due") >= Self.base)) == ["a", "b"])
        #expect(try await ids(todos.query().filter(Column("due") == Self.base)) == ["a"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func aDateWithSubMillisecondPrecisionFindsItsStoredCopy(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        let due = Date(timeIntervalSince1970: 1_700_000_000.123_678)
        try await todos.insert(ContextTodo(id: "a", text: "x", due: due))

        #expect(try await todos.query().filter(Column("due") == due).fetchCount() == 1)
        #expect(try await todos.query().filter(Column("due") < due).fetchCount() == 0)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func nilTestsMatchMissingAndNullValues(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        #expect(try await ids(todos.query().filter(Column("due") == nil)) == ["c"])
        #expect(try await ids(todos.query().filter(Column("due") != nil)) == ["a", "b", "d"])
        #expect(try await ids(todos.query().filter(Column("priority") == nil)) == ["d"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func membershipAndStringFunctions(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        #expect(try await ids(todos.query().filter(Column("id").in(["b", "d", "zz"]))) == ["b", "d"])
        #expect(try await ids(todos.query().filter(Column("text").hasPrefix("Buy"))) == ["a"])
        #expect(try await ids(todos.query().filter(Column("text").hasSuffix("!"))) == ["d"])
        #expect(try await ids(todos.query().filter(Column("text").contains("m"))) == ["a", "c"])
        #expect(try await ids(todos.query().filter(Column("text").lowercased().hasPrefix("buy"))) == ["a", "b"])
        #expect(try await ids(todos.query().filter(Column("text").uppercased() == "CALL MOM")) == ["c"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func logicalCombinationsAndRepeatedFiltersAnd(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        #expect(
            try await ids(todos.query().filter(Column("complete") == false && Column("priority") == 2)) == ["a", "c"])
        #expect(try await ids(todos.query().filter(Column("text") == "Call mom" || Column("id") == "d")) == ["c", "d"])
        #expect(try await ids(todos.query().filter(!(Column("complete") == false))) == ["b", "d"])
        #expect(
            try await ids(todos.query().filter(Column("complete") == false).filter(Column("text").contains("milk")))
                == ["a"]
        )
    }

    @Test(arguments: ContextStoreKind.allCases)
    func orderingBreaksTiesById(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        #expect(try await ids(todos.query().order(Column("priority").descending)) == ["a", "c", "b", "d"])
        #expect(try await ids(todos.query().order(Column("priority"))) == ["d", "b", "a", "c"])
        #expect(
            try await ids(todos.query().order(Column("complete"), Column("due").descending)) == ["a", "c", "b", "d"])
    }

    @Test(arguments: ContextStoreKind.allCases)
    func limitOffsetCountAndFetchOne(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)
        let ordered = todos.query().order(Column("id"))

        #expect(try await ids(ordered.limit(2)) == ["a", "b"])
        #expect(try await ids(ordered.limit(2, offset: 1)) == ["b", "c"])
        #expect(try await ids(ordered.limit(10, offset: 3)) == ["d"])
        #expect(try await todos.query().filter(Column("complete") == true).fetchCount() == 2)
        #expect(try await ordered.limit(2, offset: 3).fetchCount() == 1)
        #expect(try await ordered.filter(Column("complete") == true).fetchOne()?.id == "b")
        #expect(try await todos.query().filter(Column("text") == "nothing").fetchOne() == nil)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func typedResultsCarryDatesAndBooleans(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        let item = try #require(try await todos.query().filter(Column("id") == "b").fetchOne())

        #expect(item.complete == true)
        #expect(item.due == Self.base.addingTimeInterval(3_600))
    }

    @Test(arguments: ContextStoreKind.allCases)
    func negativeLimitIsATypedError(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        await #expect(throws: SyncError.invalidQuery("the limit -1 is negative")) {
            _ = try await todos.query().limit(-1).fetchAll()
        }
    }

    @Test(arguments: ContextStoreKind.allCases)
    func queryExposesItsStoreQueryForPullAndPurge(kind: ContextStoreKind) async throws {
        let todos = try await seeded(kind)

        let query = todos.query().filter(Column("complete") == true).order(Column("id").descending).limit(3, offset: 1)

        #expect(query.storeQuery.table == "ContextTodo")
        #expect(query.filterExpression == (Column("complete") == true).expression)
        #expect(query.storeQuery.ordering == [SortDescriptor("id", ascending: false)])
        #expect(query.storeQuery.limit == 3)
        #expect(query.storeQuery.offset == 1)
    }
}
