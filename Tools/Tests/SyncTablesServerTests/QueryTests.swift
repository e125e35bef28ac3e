import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

@Suite("GET /tables/{table} queries, paging and Link")
struct QueryTests {
    /// Seeds `count` rows with ids `r00`, `r01`, … and `n` = index.
    private func seedRows(_ server: ServerHarness, count: Int, table: String = "todo") async throws {
        let items: [JSONObject] = (0..<count).map { index in
            JSONObject([
                "id": .string(String(format: "r%02d", index)), "n": .integer(Int64(index)),
                "text": .string("t\(index % 3)"),
            ])
        }
        try await server.controls.seed(table: table, items: items)
    }

    @Test func aQueryReturnsABareJSONArrayOfItemsWithNoETag() async throws {
        try await ServerHarness.with { server in
            try await seedRows(server, count: 3)
            let response = try await server.send(.get, "/tables/todo")
            #expect(response.status == 200)
            #expect(try response.ids() == ["r00", "r01", "r02"])
            #expect(response.header("ETag") == nil)
            #expect(response.header("Link") == nil)
        }
    }

    @Test func rowsAreCappedAtThePageSizeAndALinkWithoutAngleBracketsPointsAtTheRest() async throws {
        try await ServerHarness.with({ $0.pageSize = 5 }) { server in
            try await seedRows(server, count: 12)
            let response = try await server.send(.get, "/tables/todo?$top=10&$skip=0&__includeDeleted=true")
            #expect(try response.ids() == ["r00", "r01", "r02", "r03", "r04"])
            let link = try #require(response.header("Link"))
            let token = Keyset(values: [.string("r04")], id: "r04").token
            #expect(
                link
                    == "http://127.0.0.1:\(server.port)/tables/todo?__includeDeleted=true&$top=5&$skiptoken=\(token); rel=next"
            )
            #expect(!link.contains("<"))
        }
    }

    @Test func followingLinkHeadersWalksEveryRowExactlyOnce() async throws {
        try await ServerHarness.with({ $0.pageSize = 5 }) { server in
            try await seedRows(server, count: 12)
            var path: String? = "/tables/todo?$top=1000"
            var seen: [String] = []
            while let next = path {
                let response = try await server.send(.get, next)
                seen += try response.ids()
                path = response.header("Link").map { link in
                    let url = String(link.prefix { $0 != ";" })
                    return String(url.dropFirst("http://127.0.0.1:\(server.port)".count))
                }
            }
            #expect(seen == (0..<12).map { String(format: "r%02d", $0) })
        }
    }

    @Test func noLinkWhenTopFitsInOnePageOrAllRequestedRowsCameBack() async throws {
        try await ServerHarness.with({ $0.pageSize = 5 }) { server in
            try await seedRows(server, count: 12)
            #expect(try await server.send(.get, "/tables/todo?$top=5").header("Link") == nil)
            #expect(try await server.send(.get, "/tables/todo?$top=3").header("Link") == nil)
            #expect(try await server.send(.get, "/tables/todo?$top=50&$skip=10").header("Link") == nil)
        }
    }

    @Test func customParametersAndTheFilterAreKeptInTheLinkAsSent() async throws {
        try await ServerHarness.with({ $0.pageSize = 2 }) { server in
            try await seedRows(server, count: 6)
            let response = try await server.send(.get, "/tables/todo?$skip=1&mykey=my%20value&$top=4&$orderby=n%20desc")
            #expect(try response.ids() == ["r04", "r03"])
            let token = Keyset(values: [.integer(3), .string("r03")], id: "r03").token
            #expect(
                response.header("Link")
                    == "http://127.0.0.1:\(server.port)/tables/todo?mykey=my%20value&$orderby=n%20desc&$top=2&$skiptoken=\(token); rel=next"
            )
        }
    }

    @Test func withoutTopThePageSizeAppliesAndTheLinkAsksForTheRestOfMaxTop() async throws {
        try await ServerHarness.with({ $0.pageSize = 5 }) { server in
            try await seedRows(server, count: 7)
            let response = try await server.send(.get, "/tables/todo")
            #expect(try response.ids().count == 5)
            let token = Keyset(values: [.string("r04")], id: "r04").token
            #expect(
                response.header("Link")
                    == "http://127.0.0.1:\(server.port)/tables/todo?$top=995&$skiptoken=\(token); rel=next")
        }
    }

    @Test func topAboveMaxTopIsRefusedWithTheReferenceMessage() async throws {
        try await ServerHarness.with({ $0.maxTop = 100 }) { server in
            let response = try await server.send(.get, "/tables/todo?$top=101")
            #expect(response.status == 400)
            #expect(try response.errorMessage() == "You cannot request more than 100 records")
            #expect(try await server.send(.get, "/tables/todo?$top=100").status == 200)
        }
    }

    @Test func topZeroReturnsNoRowsAndNoLink() async throws {
        try await ServerHarness.with { server in
            try await seedRows(server, count: 3)
            let response = try await server.send(.get, "/tables/todo?$top=0")
            #expect(try response.ids() == [])
            #expect(response.header("Link") == nil)
        }
    }

    @Test func skipSkipsRows() async throws {
        try await ServerHarness.with { server in
            try await seedRows(server, count: 5)
            #expect(try await server.send(.get, "/tables/todo?$skip=3").ids() == ["r03", "r04"])
            #expect(try await server.send(.get, "/tables/todo?$skip=50").ids() == [])
        }
    }

    @Test func orderByAcceptsAscDescAndNoDirectionAndBreaksTiesById() async throws {
        try await ServerHarness.with { server in
            try await seedRows(server, count: 6)
            #expect(try await server.send(.get, "/tables/todo?$orderby=n%20desc").ids().first == "r05")
            #expect(try await server.send(.get, "/tables/todo?$orderby=n%20asc").ids().first == "r00")
            #expect(try await server.send(.get, "/tables/todo?$orderby=n").ids().first == "r00")
            let byText = try await server.send(.get, "/tables/todo?$orderby=text%20desc,n").ids()
            #expect(byText == ["r02", "r05", "r01", "r04", "r00", "r03"])
            let tieBreak = try await server.send(.get, "/tables/todo?$orderby=text").ids()
            #expect(tieBreak == ["r00", "r03", "r01", "r04", "r02", "r05"])
        }
    }

    @Test func orderByPutsNullFirstThenNumbersByValueThenStrings() async throws {
        try await ServerHarness.with { server in
            try await server.controls.seed(
                table: "mixed",
                items: [
                    ["id": "a", "v": 10], ["id": "b", "v": 9], ["id": "c", "v": 2.5], ["id": "d", "v": "text"],
                    ["id": "e", "v": .null], ["id": "f", "v": -1], ["id": "g", "v": 100],
                ])
            #expect(
                try await server.send(.get, "/tables/mixed?$orderby=v").ids() == ["e", "f", "c", "b", "a", "g", "d"])
            #expect(
                try await server.send(.get, "/tables/mixed?$orderby=v%20desc").ids()
                    == ["d", "g", "a", "b", "c", "f", "e"])
        }
    }

    @Test func updatedAtOrdersAndComparesAsAnInstantWhateverItsTextLooksLike() async throws {
        try await ServerHarness.with { server in
            // As text, "…06.5Z" sorts before "…06Z"; as instants it comes after.
            try await server.controls.seed(
                table: "stamps",
                items: [
                    ["id": "x", "updatedAt": "2001-02-03T04:05:06Z"],
                    ["id": "y", "updatedAt": "2001-02-03T04:05:06.5Z"],
                    ["id": "z", "updatedAt": "2001-02-03T04:05:05.9Z"],
                ])
            #expect(try await server.send(.get, "/tables/stamps?$orderby=updatedAt").ids() == ["z", "x", "y"])
            let after = "updatedAt%20gt%20datetimeoffset'2001-02-03T04:05:06.000Z'"
            #expect(try await server.send(.get, "/tables/stamps?$filter=\(after)&$orderby=updatedAt").ids() == ["y"])
            let since = "updatedAt%20ge%20datetimeoffset'2001-02-03T04:05:06.000Z'"
            #expect(
                try await server.send(.get, "/tables/stamps?$filter=\(since)&$orderby=updatedAt").ids() == ["x", "y"])
        }
    }

    @Test(arguments: ["n%20sideways", "n%20asc%20desc", ",", "n,,id"])
    func anInvalidOrderByIsRefusedWith400(orderBy: String) async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.get, "/tables/todo?$orderby=\(orderBy)")
            #expect(response.status == 400)
        }
    }

    @Test func selectProjectsTheListedPropertiesAndAlwaysKeepsId() async throws {
        try await ServerHarness.with { server in
            try await seedRows(server, count: 2)
            let items = try await server.send(.get, "/tables/todo?$select=n").objects()
            #expect(
                items == [
                    JSONObject(["id": .string("r00"), "n": .integer(0)]),
                    JSONObject(["id": .string("r01"), "n": .integer(1)]),
                ]
            )
            let two = try await server.send(.get, "/tables/todo?$select=text,%20n").objects()
            #expect(two.first == JSONObject(["id": .string("r00"), "n": .integer(0), "text": .string("t0")]))
        }
    }

    @Test func selectStarReturnsWholeItems() async throws {
        try await ServerHarness.with { server in
            try await seedRows(server, count: 1)
            let item = try #require(try await server.send(.get, "/tables/todo?$select=*").objects().first)
            #expect(item["text"] == .string("t0"))
            #expect(item["version"] != nil)
        }
    }

    @Test func inlineCountAllPagesWrapsThePageWithTheTotalCountOfMatchingRows() async throws {
        try await ServerHarness.with({ $0.pageSize = 2 }) { server in
            try await seedRows(server, count: 5)
            let body = try await server.send(.get, "/tables/todo?$inlinecount=allpages&$top=3&$skip=1").object()
            #expect(body["count"] == .integer(5))
            guard case .array(let results)? = body["results"] else {
                Issue.record("results is not an array")
                return
            }
            #expect(results.count == 2)
        }
    }

    @Test func inlineCountCountsOnlyLiveRowsUnlessIncludeDeletedIsGiven() async throws {
        try await ServerHarness.with({ $0.softDelete = .allTables }) { server in
            try await seedRows(server, count: 4)
            _ = try await server.send(.delete, "/tables/todo/r01")
            #expect(try await server.send(.get, "/tables/todo?$inlinecount=allpages").object()["count"] == .integer(3))
            let all = try await server.send(.get, "/tables/todo?$inlinecount=allpages&__includeDeleted=true").object()
            #expect(all["count"] == .integer(4))
        }
    }

    @Test func aQueryOnATableNeverWrittenReturnsAnEmptyArray() async throws {
        try await ServerHarness.with { server in
            let ids = try await server.send(.get, "/tables/neverSeen").ids()
            #expect(ids.isEmpty)
        }
    }
}
