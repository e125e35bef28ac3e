import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Produces random and mutated `$filter` strings from the valid and invalid cases.
struct FilterMutator {
    var random: SeededGenerator
    let corpus: [String]

    private static let fragments = [
        " eq ", " ne ", " gt ", " ge ", " lt ", " le ", " and ", " or ", "not ", " add ", " sub ", " mul ", " div ",
        " mod ", "(", ")", ",", "'", "''", "-", "null", "true", "false", "1", "0", "-1", "9223372036854775807",
        "9223372036854775808", "1.5", "1e308", "1e309", "2L", "3.0f", "4.5M", "NaN", "INF", "datetime'",
        "datetimeoffset'2000-01-01T00:00:00Z'", "datetimeoffset'2000-13-45T99:99:99+25:00'", "guid'", "guid'x'",
        "text", "n", "price", "updatedAt", "id", "tag", "startswith(", "substringof(", "substring(", "length(",
        "indexof(", "replace(", "concat(", "tolower(", "toupper(", "trim(", "year(", "round(", "floor(", "ceiling(",
        "day(", "second(", " ", "\u{0}", "\u{7F}", "é", "😀", "%", "%2B", "+", ";", "--", "/*", "\"", "\\", "$",
        "[", "]", "{", "}", "=", "&", "in (", ".",
    ]

    mutating func next() -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return randomTokens()
        case 1: return splice()
        default: return mutate(corpus.randomElement(using: &random) ?? "")
        }
    }

    private mutating func randomTokens() -> String {
        (0..<Int.random(in: 1...12, using: &random)).map { _ in Self.fragments.randomElement(using: &random) ?? "" }
            .joined()
    }

    private mutating func splice() -> String {
        let a = Array(corpus.randomElement(using: &random) ?? "")
        let b = Array(corpus.randomElement(using: &random) ?? "")
        let cutA = Int.random(in: 0...a.count, using: &random)
        let cutB = Int.random(in: 0...b.count, using: &random)
        return String(a[..<cutA]) + String(b[cutB...])
    }

    private mutating func mutate(_ text: String) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                characters.insert(contentsOf: Self.fragments.randomElement(using: &random) ?? "", at: position)
            case 1:
                if !characters.isEmpty { characters.remove(at: position) }
            case 2:
                if !characters.isEmpty { characters[position] = Character(Self.randomScalar(&random)) }
            default:
                characters = Array(characters.prefix(position))
            }
        }
        return String(characters)
    }

    private static func randomScalar(_ random: inout SeededGenerator) -> Unicode.Scalar {
        let value = UInt32.random(in: 0...0x2FF, using: &random)
        return Unicode.Scalar(value) ?? "?"
    }
}

@Suite("$filter fuzzing")
struct FilterFuzzTests {
    @Test func everyOf100000RandomFiltersParsesOrFailsWithA400AndRunsOnSQLite() async throws {
        let store = try SQLiteStore.inMemory()
        let tables = TableService(
            store: store,
            softDelete: .allTables,
            stamps: WriteStampIssuer(),
            definedTables: DefinedTables()
        )
        guard case .array(let rows) = try WireJSON.parse(Array(filterRows.utf8)) else {
            Issue.record("filter rows are not an array")
            return
        }
        _ = try await tables.seed(
            table: "items", items: rows.compactMap { if case .object(let o) = $0 { o } else { nil } })
        var mutator = FilterMutator(
            random: SeededGenerator(seed: 0x5EED),
            corpus: filterCases.map(\.filter) + invalidFilters.filter { $0.count < 1000 }
        )
        var parsed = 0
        var refused = 0
        for _ in 0..<100_000 {
            let text = mutator.next()
            do {
                let filter = try ODataBridge.filter(text)
                parsed += 1
                // Running only the parsed filters keeps the test fast; these are the ones that reach SQL.
                _ = try await store.read(StoreQuery(table: "items", filter: filter, limit: 5))
            } catch let error as ServerError {
                #expect(error.status == .badRequest, "\(text)")
                #expect(error.message.hasPrefix("Invalid"), "\(text)")
                refused += 1
            } catch {
                Issue.record("filter \(text.debugDescription) failed in the store: \(error)")
            }
        }
        #expect(parsed + refused == 100_000)
        #expect(parsed > 1_000, "the mutator should still produce many valid filters")
        try await store.close()
    }

    @Test func randomFiltersOverHTTPGet200Or400NeverA500OrADroppedConnection() async throws {
        try await ServerHarness.with { server in
            _ = try await server.send(.post, "/__test/seed/items", json: filterRows)
            var mutator = FilterMutator(
                random: SeededGenerator(seed: 0xF00D),
                corpus: filterCases.map(\.filter) + invalidFilters.filter { $0.count < 1000 }
            )
            let inputs = (0..<2_000).map { _ in mutator.next() }
            try await server.withConnection { connection in
                for text in inputs {
                    let response = try await connection.send(.get, "/tables/items?$filter=\(text.queryEncoded)")
                    #expect(
                        response.status == 200 || response.status == 400, "\(text.debugDescription): \(response.text)")
                }
            }
        }
    }
}
