import Testing

@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// The thin SQLite layer: binding, functions, transactions, errors.
@Suite("SQLite layer") struct SQLiteDatabaseTests {
    @Test func textWithNULAndEmptyStringsRoundTrip() throws {
        let database = try Database(path: ":memory:")
        for text in ["a\u{0}b", "", "\u{1F600}"] {
            #expect(try database.scalar("SELECT ?", [.text(text)]) == .text(text))
        }
        #expect(try database.scalar("SELECT typeof(?)", [.text("")]) == .text("text"))
    }

    @Test func aRegisteredSwiftFunctionIsCalledFromSQL() throws {
        let database = try Database(path: ":memory:")
        try database.createFunction(name: "twice", argumentCount: 1) { arguments in
            if case .integer(let value) = arguments[0] { return .integer(value * 2) }
            return .null
        }
        #expect(try database.scalar("SELECT twice(21)") == .integer(42))
        #expect(try database.scalar("SELECT twice('x')") == .null)
    }

    @Test func aThrowingSwiftFunctionFailsTheStatement() throws {
        struct Refused: Error {}
        let database = try Database(path: ":memory:")
        try database.createFunction(name: "refuse", argumentCount: 0) { _ in throw Refused() }
        #expect(throws: SQLiteError.self) { _ = try database.scalar("SELECT refuse()") }
    }

    @Test func aThrowingTransactionBodyRollsBack() throws {
        struct Abort: Error {}
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t(x)")
        #expect(throws: Abort.self) {
            try database.transaction {
                try database.run("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(try database.scalar("SELECT count(*) FROM t") == .integer(0))
        #expect(!database.isInTransaction)
    }

    @Test func aFailingNestedTransactionOnlyUndoesItsSavepoint() throws {
        struct Abort: Error {}
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t(x)")
        try database.transaction {
            try database.run("INSERT INTO t VALUES (1)")
            try? database.transaction {
                try database.run("INSERT INTO t VALUES (2)")
                throw Abort()
            }
        }
        #expect(try database.scalar("SELECT group_concat(x) FROM t") == .text("1"))
    }

    @Test func errorsCarryCodesMessageAndSQL() throws {
        let database = try Database(path: ":memory:")
        #expect {
            try database.execute("SELEKT 1")
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.code == 1 && error.sql == "SELEKT 1" && error.message.contains("syntax")
        }
    }

    @Test func cachedStatementsAreReusedAndComeBackReset() throws {
        let database = try Database(path: ":memory:")
        let first = try database.cachedStatement("SELECT ?")
        try first.bind(.integer(1), at: 1)
        let second = try database.cachedStatement("SELECT ?")
        #expect(first === second)
        #expect(try second.step())
        #expect(second.value(at: 0) == .null)
    }
}
