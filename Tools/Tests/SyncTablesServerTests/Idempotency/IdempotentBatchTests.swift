import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Each write of a batch may carry its key (`"idempotencyKey"`), and runs as the single request with that key
/// would: a batch sent again replays write by write.
@Suite("Idempotent batched writes")
struct IdempotentBatchTests {
    private static let batch = """
        {"operations": [
          {"method": "POST", "table": "todo", "body": {"id": "a", "n": 1}, "idempotencyKey": "op-a.1"},
          {"method": "PATCH", "table": "todo", "id": "seed", "body": {"n": 2}, "idempotencyKey": "op-seed.1"},
          {"method": "DELETE", "table": "todo", "id": "gone", "idempotencyKey": "op-gone.1"}
        ]}
        """

    @Test func aBatchSentAgainReplaysEveryKeyedWrite() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"seed"}"#)
            try await server.insert("todo", #"{"id":"gone"}"#)
            let first = try await server.send(.post, "/sync/batch", json: Self.batch)
            try #require(first.status == 200, "\(first.text)")
            let seedAfterFirst = try await server.send(.get, "/tables/todo/seed")

            let again = try await server.send(.post, "/sync/batch", json: Self.batch)

            #expect(try Self.results(of: again).map(\.status) == [201, 200, 200])
            #expect(try Self.results(of: again).map(\.body) == (try Self.results(of: first).map(\.body)))
            #expect(try await server.send(.get, "/tables/todo/seed").header("ETag") == seedAfterFirst.header("ETag"))
        }
    }

    @Test func aBatchedWriteAndItsSingleRequestShareTheKey() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"seed"}"#)
            try await server.insert("todo", #"{"id":"gone"}"#)
            let batch = try await server.send(.post, "/sync/batch", json: Self.batch)
            let batched = try #require(try Self.results(of: batch).dropFirst().first)

            let single = try await server.send(
                .patch, "/tables/todo/seed", json: #"{"n":2}"#, headers: idempotencyKey("op-seed.1"))

            #expect(single.status == 200 && single.header("Idempotent-Replayed") == "true")
            #expect(try single.json() == batched.body)
        }
    }

    @Test func aKeyOnTheBatchItselfIsNoWritesKey() async throws {
        try await ServerHarness.with { server in
            let body = #"{"operations": [{"method": "POST", "table": "todo", "body": {"id": "a"}}]}"#
            let first = try await server.send(.post, "/sync/batch", json: body, headers: idempotencyKey("batch"))
            let again = try await server.send(.post, "/sync/batch", json: body, headers: idempotencyKey("batch"))
            #expect(try Self.results(of: first).map(\.status) == [201])
            #expect(try Self.results(of: again).map(\.status) == [409])
        }
    }

    @Test func aMalformedKeyInABatchIs400AndRunsNothing() async throws {
        try await ServerHarness.with { server in
            for key in [#""""#, #"42"#, "\"\(String(repeating: "k", count: 256))\"", #""tab\there""#] {
                let body = """
                    {"operations": [{"method": "POST", "table": "todo", "body": {"id": "a"}},
                      {"method": "POST", "table": "todo", "body": {"id": "b"}, "idempotencyKey": \(key)}]}
                    """
                let response = try await server.send(.post, "/sync/batch", json: body)
                #expect(response.status == 400, "\(key): \(response.text)")
                #expect(try response.errorMessage()?.hasPrefix("Batch operation 1:") == true)
            }
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
        }
    }

    private static func results(of response: HTTPResult) throws -> [(status: Int, body: JSONValue)] {
        guard case .array(let results)? = try response.object()["results"] else { return [] }
        return results.compactMap { result in
            guard case .object(let object) = result, case .integer(let status)? = object["status"] else { return nil }
            return (Int(status), object["body"] ?? .null)
        }
    }
}
