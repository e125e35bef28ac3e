import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Concurrent clients")
struct ConcurrencyTests {
    @Test func everyWriteOf16ClientsLandsExactlyOnceWithADistinctVersion() async throws {
        let clients = 16
        let itemsPerClient = 100  // each item is inserted, then updated: 200 writes per client
        try await ServerHarness.with({
            $0.pageSize = 5000; $0.maxTop = 5000
        }) { server in
            let versions = try await withThrowingTaskGroup(of: [String].self) { group in
                for client in 0..<clients {
                    group.addTask {
                        var seen: [String] = []
                        try await server.withConnection { connection in
                            for index in 0..<itemsPerClient {
                                let id = "c\(client)-\(index)"
                                let insert = try await connection.send(
                                    .post, "/tables/todo", json: "{\"id\":\"\(id)\",\"n\":0}")
                                try #require(insert.status == 201, "\(insert.text)")
                                seen.append(try insert.object().string("version") ?? "")
                            }
                            for index in 0..<itemsPerClient {
                                let update = try await connection.send(
                                    .patch, "/tables/todo/c\(client)-\(index)", json: #"{"n":1}"#)
                                try #require(update.status == 200, "\(update.text)")
                                seen.append(try update.object().string("version") ?? "")
                            }
                        }
                        return seen
                    }
                }
                var all: [String] = []
                for try await versions in group { all += versions }
                return all
            }
            #expect(versions.count == clients * itemsPerClient * 2)
            #expect(Set(versions).count == versions.count)

            let rows = try await server.send(.get, "/tables/todo?$top=5000").objects()
            #expect(rows.count == clients * itemsPerClient)
            #expect(Set(rows.compactMap { $0.string("id") }).count == clients * itemsPerClient)
            #expect(rows.allSatisfy { $0["n"] == .integer(1) })
            let updatedAts = rows.compactMap { $0.string("updatedAt") }
            #expect(Set(updatedAts).count == updatedAts.count, "server timestamps strictly increase")
        }
    }

    @Test func concurrentInsertsOfTheSameIdGetExactlyOne201AndTheRest409() async throws {
        try await ServerHarness.with { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        try await server.send(.post, "/tables/todo", json: "{\"id\":\"same\",\"by\":\(index)}").status
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.filter { $0 == 409 }.count == 15)
        }
    }

    @Test func concurrentUpdatesWithTheSameIfMatchHaveOneWinnerAndTheRestGet412() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","n":0}"#)
            let etag = "\"\(stored.string("version") ?? "")\""
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        try await server.send(
                            .patch, "/tables/todo/a", json: "{\"n\":\(index)}", headers: ["If-Match": etag]
                        ).status
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 412 }.count == 15)
        }
    }
}
