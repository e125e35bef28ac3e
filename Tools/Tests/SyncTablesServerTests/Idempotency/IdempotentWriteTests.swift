import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Writes carrying an `Idempotency-Key` run once: a repeat gets the first answer back (the idempotency
/// extension, see the DocC article "Idempotent writes").
@Suite("Idempotent writes")
struct IdempotentWriteTests {
    @Test func aRepeatedInsertGetsTheSameAnswerAndWritesNothing() async throws {
        try await ServerHarness.with { server in
            let first = try await server.send(
                .post, "/tables/todo", json: #"{"id":"a","n":1}"#, headers: idempotencyKey("k1"))
            try #require(first.status == 201, "\(first.text)")

            let repeated = try await server.send(
                .post, "/tables/todo", json: #"{"id":"a","n":1}"#, headers: idempotencyKey("k1"))

            #expect(repeated.status == 201)
            #expect(repeated.body == first.body)
            #expect(repeated.header("ETag") == first.header("ETag"))
            #expect(repeated.header("Idempotent-Replayed") == "true")
            #expect(first.header("Idempotent-Replayed") == nil)
            let stored = try await server.send(.get, "/tables/todo/a")
            #expect(stored.header("ETag") == first.header("ETag"))
        }
    }

    @Test func aRepeatedUpdateReplaysEvenAfterTheItemChangedAndLeavesTheChangeAlone() async throws {
        try await ServerHarness.with { server in
            let created = try await server.insert("todo", #"{"id":"a","quantity":10}"#)
            let ifMatch = ["If-Match": "\"\(created.string("version") ?? "")\""]
            let first = try await server.send(
                .patch, "/tables/todo/a", json: #"{"quantity":7}"#,
                headers: idempotencyKey("op.1").merging(ifMatch) { $1 })
            try #require(first.status == 200, "\(first.text)")
            let other = try await server.send(.patch, "/tables/todo/a", json: #"{"quantity":5}"#)
            try #require(other.status == 200)

            let repeated = try await server.send(
                .patch, "/tables/todo/a", json: #"{"quantity":7}"#,
                headers: idempotencyKey("op.1").merging(ifMatch) { $1 })

            #expect(repeated.status == 200 && repeated.body == first.body)
            #expect(repeated.header("ETag") == first.header("ETag"))
            let stored = try await server.send(.get, "/tables/todo/a")
            #expect(try stored.object()["quantity"] == 5)
            #expect(stored.header("ETag") == other.header("ETag"))
        }
    }

    @Test func aRepeatedDeleteReplaysItsAnswerOnceTheRowIsGone() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let first = try await server.send(.delete, "/tables/todo/a", headers: idempotencyKey("gone"))
            try #require(first.status == 200, "\(first.text)")

            let repeated = try await server.send(.delete, "/tables/todo/a", headers: idempotencyKey("gone"))

            #expect(repeated.status == 200 && repeated.body == first.body)
            #expect(try await server.send(.delete, "/tables/todo/a").status == 404)
        }
    }

    @Test func aRepeatedNoContentDeleteReplaysTheEmptyAnswer() async throws {
        try await ServerHarness.with({ $0.deleteReturnsNoContent = true }) { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            #expect(try await server.send(.delete, "/tables/todo/a", headers: idempotencyKey("gone")).status == 204)

            let repeated = try await server.send(.delete, "/tables/todo/a", headers: idempotencyKey("gone"))

            #expect(repeated.status == 204 && repeated.body.isEmpty)
            #expect(repeated.header("Idempotent-Replayed") == "true")
        }
    }

    @Test func aRepeatedUndeleteReplays() async throws {
        try await ServerHarness.with({ $0.softDelete = .allTables }) { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            #expect(try await server.send(.delete, "/tables/todo/a").status == 200)
            let first = try await server.send(.post, "/tables/todo/a", headers: idempotencyKey("back"))
            try #require(first.status == 200, "\(first.text)")

            let repeated = try await server.send(.post, "/tables/todo/a", headers: idempotencyKey("back"))

            #expect(repeated.status == 200 && repeated.header("ETag") == first.header("ETag"))
        }
    }

    @Test func theSameKeyForAnotherMethodOrPathIs422() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            try await server.insert("todo", #"{"id":"b"}"#)
            #expect(
                try await server.send(.patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k")).status
                    == 200)

            let otherPath = try await server.send(
                .patch, "/tables/todo/b", json: #"{"n":1}"#, headers: idempotencyKey("k"))
            let otherMethod = try await server.send(.delete, "/tables/todo/a", headers: idempotencyKey("k"))

            #expect(otherPath.status == 422 && otherMethod.status == 422)
            #expect(try otherPath.errorMessage()?.contains("was used for PATCH /tables/todo/a") == true)
            #expect(try await server.send(.get, "/tables/todo/b").object()["n"] == nil)
            #expect(try await server.send(.get, "/tables/todo/a").status == 200)
        }
    }

    @Test func aFailedWriteRecordsNoKey() async throws {
        try await ServerHarness.with { server in
            let missing = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey("k"))
            #expect(missing.status == 404)
            let created = try await server.insert("todo", #"{"id":"a"}"#)
            let stale = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":2}"#,
                headers: idempotencyKey("k").merging(["If-Match": "\"old\""]) { $1 })
            #expect(stale.status == 412)

            let retried = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":3}"#, headers: idempotencyKey("k"))

            #expect(retried.status == 200 && retried.header("Idempotent-Replayed") == nil)
            #expect(try retried.object()["n"] == 3)
            #expect(retried.header("ETag") != "\"\(created.string("version") ?? "")\"")
        }
    }

    @Test func aConflictingInsertRecordsNoKey() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            #expect(
                try await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#, headers: idempotencyKey("k")).status
                    == 409)
            #expect(try await server.send(.delete, "/tables/todo/a").status == 200)

            let retried = try await server.send(
                .post, "/tables/todo", json: #"{"id":"a"}"#, headers: idempotencyKey("k"))

            #expect(retried.status == 201 && retried.header("Idempotent-Replayed") == nil)
        }
    }

    @Test func keysAreCheckedAndAMalformedOneIs400() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let malformed = [
                String(repeating: "k", count: 256), "\"unterminated", "\"a\"b", "\"\"", "\"bad\\escape\"", "ünïcode",
            ]
            for value in malformed {
                let response = try await server.send(
                    .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: ["Idempotency-Key": value])
                #expect(response.status == 400, "\(value): \(response.text)")
            }
            #expect(try await server.send(.get, "/tables/todo/a").object()["n"] == nil)
            let longest = String(repeating: "k", count: 255)
            let bare = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: ["Idempotency-Key": longest])
            let quoted = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: idempotencyKey(longest))
            #expect(bare.status == 200 && quoted.status == 200)
            #expect(quoted.header("Idempotent-Replayed") == "true", "a bare key and its quoted form are one key")
        }
    }

    @Test func theCapabilitiesDocumentAnnouncesTheExtension() async throws {
        try await ServerHarness.with({ $0.idempotencyKeyRetention = .seconds(3600) }) { server in
            let document = try await server.send(.get, "/sync/capabilities").object()
            #expect(
                document["idempotency"]
                    == .object(JSONObject(["header": "Idempotency-Key", "retentionSeconds": 3600])))
        }
    }

    @Test func withoutRetentionKeysAreIgnoredAndNothingIsAnnounced() async throws {
        try await ServerHarness.with({ $0.idempotencyKeyRetention = .zero }) { server in
            #expect(try await server.send(.get, "/sync/capabilities").object()["idempotency"] == nil)
            let first = try await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#, headers: idempotencyKey("k"))
            let repeated = try await server.send(
                .post, "/tables/todo", json: #"{"id":"a"}"#, headers: idempotencyKey("k"))
            #expect(first.status == 201 && repeated.status == 409)
        }
    }
}

/// The header of a keyed request, the key quoted as the draft has it.
func idempotencyKey(_ value: String) -> [String: String] {
    ["Idempotency-Key": "\"\(value)\""]
}
