import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

@Suite("Keyset paging: next links carry where a page ended")
struct KeysetPagingTests {
    /// Follows next links from `path` and returns every id, in order.
    private func walk(_ server: ServerHarness, from path: String) async throws -> [String] {
        var next: String? = path
        var seen: [String] = []
        var pages = 0
        while let current = next, pages < 100 {
            let response = try await server.send(.get, current)
            try #require(response.status == 200, "\(current): \(response.text)")
            seen += try response.ids()
            next = response.header("Link").map { link in
                String(link.prefix { $0 != ";" }.dropFirst("http://127.0.0.1:\(server.port)".count))
            }
            pages += 1
        }
        return seen
    }

    private static let mixedRows = """
        [{"id":"a","n":3},{"id":"b"},{"id":"c","n":1},{"id":"d","n":3},{"id":"e","n":null},{"id":"f","n":2.5},
         {"id":"g","n":"text"},{"id":"h","n":3},{"id":"i","n":-1},{"id":"j","n":"abc"},{"id":"k","n":true}]
        """

    @Test(arguments: ["", "n", "n desc", "n,id desc", "n desc,id desc"])
    func followingLinksGivesExactlyTheOrderOfASingleRequest(orderBy: String) async throws {
        try await ServerHarness.with({ $0.pageSize = 2 }) { server in
            _ = try await server.send(.post, "/__test/seed/items", json: Self.mixedRows)
            let order = orderBy.isEmpty ? "" : "&$orderby=\(orderBy.queryEncoded)"
            let walked = try await walk(server, from: "/tables/items?$top=1000\(order)")

            var whole: [String] = []
            for skip in stride(from: 0, to: 12, by: 2) {
                whole += try await server.send(.get, "/tables/items?$top=2&$skip=\(skip)\(order)").ids()
            }
            #expect(walked == whole)
            #expect(walked.count == 11)
        }
    }

    @Test func rowsInsertedBeforeThePageBoundaryDoNotShiftTheNextPage() async throws {
        try await ServerHarness.with({ $0.pageSize = 5 }) { server in
            for index in 0..<10 { try await server.insert("todo", #"{"id":"r\#(index)"}"#) }
            let first = try await server.send(.get, "/tables/todo?$top=10")
            #expect(try first.ids() == ["r0", "r1", "r2", "r3", "r4"])
            try await server.insert("todo", #"{"id":"a"}"#)
            let link = try #require(first.header("Link"))
            let path = String(link.prefix { $0 != ";" }.dropFirst("http://127.0.0.1:\(server.port)".count))
            #expect(try await server.send(.get, path).ids() == ["r5", "r6", "r7", "r8", "r9"])
        }
    }

    @Test func linksOver300RowsWithOneUpdatedAtWalkThemOnceInIdOrder() async throws {
        try await ServerHarness.with({ $0.pageSize = 50 }) { server in
            let stamp = JSONValue.string("2026-01-01T00:00:00.000Z")
            let rows = (0..<300).map { JSONObject(["id": .string(String(format: "m%03d", $0)), "updatedAt": stamp]) }
            try await server.controls.seed(table: "items", items: rows)
            var next: String? = "/tables/items?$top=1000&$orderby=updatedAt"
            var seen: [String] = []
            while let current = next {
                let response = try await server.send(.get, current)
                seen += try response.ids()
                // Behind the boundary (never returned) and ahead of it (returned once), same timestamp.
                let page = seen.count
                try await server.controls.seed(
                    table: "items",
                    items: [
                        JSONObject(["id": .string("a\(page)"), "updatedAt": stamp]),
                        JSONObject(["id": .string("z\(page)"), "updatedAt": stamp]),
                    ])
                next = response.header("Link").map { link in
                    String(link.prefix { $0 != ";" }.dropFirst("http://127.0.0.1:\(server.port)".count))
                }
            }
            let expected = rows.map { $0["id"]?.stringValue ?? "" } + ["z050", "z100", "z150", "z200", "z250", "z300"]
            #expect(seen.prefix(300) == expected.prefix(300)[...])
            #expect(Set(seen).count == seen.count, "a row came twice")
            #expect(seen.filter { $0.hasPrefix("a") }.isEmpty)
        }
    }

    @Test(arguments: ["x", "WyJhIl0", "eyJhIjoxfQ", "AAAA"])
    func anInvalidSkipTokenIsA400(token: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?$skiptoken=\(token)")
            #expect(response.status == 400)
            #expect(try response.errorMessage()?.contains("$skiptoken") == true)
        }
    }

    @Test func theCountOfAKeysetPageCountsEveryMatchingRow() async throws {
        try await ServerHarness.with { server in
            for index in 0..<4 { try await server.insert("todo", #"{"id":"r\#(index)"}"#) }
            let token = Keyset(values: [.string("r1")], id: "r1").token
            let body = try await server.send(.get, "/tables/todo?$inlinecount=allpages&$skiptoken=\(token)").object()
            #expect(body["count"] == .integer(4))
            guard case .array(let results)? = body["results"] else {
                Issue.record("no results")
                return
            }
            #expect(results.count == 2)
        }
    }

    @Test func aSelectWithoutTheSortKeyFallsBackToASkipLink() async throws {
        try await ServerHarness.with({ $0.pageSize = 2 }) { server in
            _ = try await server.send(.post, "/__test/seed/items", json: Self.mixedRows)
            let response = try await server.send(.get, "/tables/items?$top=4&$orderby=n&$select=id")
            let link = try #require(response.header("Link"))
            #expect(link.contains("$skip=2"))
            #expect(!link.contains("$skiptoken"))
        }
    }
}
