import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Keys belong to their caller: another user's key never replays, so it can neither read an answer meant for
/// someone else nor keep someone else's write from running.
@Suite("Idempotency keys per caller")
struct IdempotencyScopeTests {
    @Test func anotherUsersKeyNeverReplays() async throws {
        try await Self.withUsers { server, alice, bob in
            let created = try await server.send(
                .post, "/tables/todo", json: #"{"id":"a","secret":"alice's"}"#,
                headers: idempotencyKey("shared").merging(alice) { $1 })
            try #require(created.status == 201, "\(created.text)")

            let bobs = try await server.send(
                .post, "/tables/todo", json: #"{"id":"b","text":"bob's"}"#,
                headers: idempotencyKey("shared").merging(bob) { $1 })

            #expect(bobs.status == 201 && bobs.header("Idempotent-Replayed") == nil)
            #expect(try bobs.object()["secret"] == nil && bobs.text.contains("bob's"))
            let aliceAgain = try await server.send(
                .post, "/tables/todo", json: #"{"id":"a","secret":"alice's"}"#,
                headers: idempotencyKey("shared").merging(alice) { $1 })
            #expect(aliceAgain.header("Idempotent-Replayed") == "true" && aliceAgain.body == created.body)
        }
    }

    @Test func anotherUsersKeyForTheSameRequestRunsItAgain() async throws {
        try await Self.withUsers { server, alice, bob in
            try await server.insert("todo", #"{"id":"a"}"#, headers: alice)
            let alices = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k").merging(alice) { $1 })
            try #require(alices.status == 200)

            let bobs = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":2}"#, headers: idempotencyKey("k").merging(bob) { $1 })

            #expect(bobs.status == 200 && bobs.header("Idempotent-Replayed") == nil)
            #expect(try bobs.object()["n"] == 2 && bobs.header("ETag") != alices.header("ETag"))
        }
    }

    @Test func callersWithoutASubjectShareOneScope() async throws {
        try await ServerHarness.with { server in
            let first = try await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#, headers: idempotencyKey("k"))
            let second = try await server.send(
                .post, "/tables/todo", json: #"{"id":"a"}"#, headers: idempotencyKey("k"))
            #expect(first.status == 201 && second.header("Idempotent-Replayed") == "true")
        }
    }

    /// A development-mode server that verifies tokens, with the `Authorization` headers of alice and bob.
    private static func withUsers(
        _ body: (ServerHarness, _ alice: [String: String], _ bob: [String: String]) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyPath = folder.appendingPathComponent("dev-key.json").path
        let key = try DevelopmentKey.loadOrCreate(at: keyPath)
        let alice = ["Authorization": "Bearer \(try await key.token(subject: "alice"))"]
        let bob = ["Authorization": "Bearer \(try await key.token(subject: "bob"))"]
        try await ServerHarness.with({ $0.authentication = .jwt(JWTVerification(keys: .file(path: keyPath))) }) {
            server in
            try await body(server, alice, bob)
        }
    }
}

extension ServerHarness {
    /// Inserts an item with these headers and returns the stored item.
    @discardableResult
    func insert(_ table: String, _ json: String, headers: [String: String]) async throws -> JSONObject {
        let response = try await send(.post, "/tables/\(table)", json: json, headers: headers)
        try #require(response.status == 201, "insert failed: \(response.text)")
        return try response.object()
    }
}
