import HTTPTypes
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

@Suite("Test controls: faults, request log, seeding, reset")
struct TestControlTests {
    @Test func aRespondFaultAnswersTheNthMatchingRequestAndWritesNothing() async throws {
        try await ServerHarness.with { server in
            try await server.controls.addFault(
                FaultRule(method: "POST", path: "/tables/todo", occurrence: 2, action: .respond(status: 500))
            )
            #expect(try await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#).status == 201)
            let failed = try await server.send(.post, "/tables/todo", json: #"{"id":"b"}"#)
            #expect(failed.status == 500)
            #expect(try failed.errorMessage() == "Injected fault")
            #expect(try await server.send(.post, "/tables/todo", json: #"{"id":"c"}"#).status == 201)
            #expect(try await server.send(.get, "/tables/todo").ids() == ["a", "c"])
        }
    }

    @Test func aRespondFaultCanCarryACustomBodyAndFireOnEveryMatch() async throws {
        try await ServerHarness.with { server in
            try await server.controls.addFault(
                FaultRule(
                    path: "/tables/",
                    matchesPrefix: true,
                    occurrence: nil,
                    action: .respond(status: 401, body: .object(JSONObject(["error": .string("token expired")])))
                )
            )
            for _ in 0..<3 {
                let response = try await server.send(.get, "/tables/todo")
                #expect(response.status == 401)
                #expect(try response.errorMessage() == "token expired")
            }
        }
    }

    @Test func aDroppedConnectionReachesTheClientAsAConnectionErrorAndRunsNothing() async throws {
        try await ServerHarness.with { server in
            try await server.controls.addFault(FaultRule(method: "POST", path: "/tables/todo", action: .dropConnection))
            await #expect(throws: (any Error).self) {
                _ = try await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#)
            }
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
        }
    }

    @Test func droppedRequestsAreStillRecordedInTheRequestLog() async throws {
        try await ServerHarness.with { server in
            try await server.controls.addFault(FaultRule(method: "POST", path: "/tables/todo", action: .dropConnection))
            _ = try? await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#)
            let log = try await server.controls.requests()
            #expect(log.map(\.method) == ["POST"])
            #expect(log.first?.body == #"{"id":"a"}"#)
        }
    }

    @Test func seedingOverHTTPRefusesBodiesThatAreNotArraysOfObjectsWithValidIds() async throws {
        try await ServerHarness.with { server in
            for body in [#"{"id":"a"}"#, "[1]", #"[{"text":"no id"}]"#, #"[{"id":"a/b"}]"#, "["] {
                let response = try await server.send(.post, "/__test/seed/todo", json: body)
                #expect(response.status == 400, "\(body)")
            }
            #expect(try await server.send(.post, "/__test/seed/bad-name", json: "[]").status == 400)
        }
    }

    @Test func aLostResponseAppliesTheWriteButTheClientSeesAConnectionError() async throws {
        try await ServerHarness.with { server in
            try await server.controls.addFault(FaultRule(method: "POST", path: "/tables/todo", action: .lostResponse))
            await #expect(throws: (any Error).self) {
                _ = try await server.send(.post, "/tables/todo", json: #"{"id":"a","text":"x"}"#)
            }
            let stored = try await server.send(.get, "/tables/todo/a")
            #expect(stored.status == 200)
            #expect(try stored.object()["text"] == .string("x"))
        }
    }

    @Test func aDelayFaultHoldsTheResponseThenAnswersNormally() async throws {
        try await ServerHarness.with { server in
            try await server.controls.addFault(FaultRule(path: "/tables/todo", action: .delay(milliseconds: 300)))
            let clock = ContinuousClock()
            let started = clock.now
            let response = try await server.send(.get, "/tables/todo")
            #expect(response.status == 200)
            #expect(clock.now - started >= .milliseconds(300))
        }
    }

    @Test func faultsMatchByMethodAndExactPathUnlessAPrefixIsAskedFor() async throws {
        try await ServerHarness.with { server in
            try await server.controls.addFault(
                FaultRule(method: "DELETE", path: "/tables/todo/a", action: .respond(status: 503)))
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
            #expect(try await server.send(.delete, "/tables/todo/ab").status == 404)
            #expect(try await server.send(.delete, "/tables/todo/a").status == 503)
        }
    }

    @Test func faultsCanBeScriptedOverHTTP() async throws {
        try await ServerHarness.with { server in
            let add = try await server.send(
                .post,
                "/__test/faults",
                json: #"{"method":"GET","path":"/tables/todo","occurrence":1,"action":"respond","status":502}"#,
                apiVersion: nil
            )
            #expect(add.status == 201)
            #expect(try await server.send(.get, "/tables/todo").status == 502)
            #expect(try await server.send(.get, "/tables/todo").status == 200)

            _ = try await server.send(.post, "/__test/faults", json: #"{"path":"/tables/todo","action":"drop"}"#)
            await #expect(throws: (any Error).self) { _ = try await server.send(.get, "/tables/todo") }

            let bad = try await server.send(.post, "/__test/faults", json: #"{"path":"/x","action":"explode"}"#)
            #expect(bad.status == 400)
        }
    }

    @Test func theRequestLogRecordsMethodPathQueryHeadersAndBody() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            _ = try await server.send(
                .patch, "/tables/todo/a", json: #"{"n":1}"#, headers: ["If-Match": "\"v1\"", "X-ZUMO-FEATURES": "OL"])
            _ = try await server.send(.get, "/tables/todo?$filter=(n%20eq%201)&$top=50&__includeDeleted=true")
            let log = try await server.controls.requests()
            #expect(log.map(\.method) == ["POST", "PATCH", "GET"])
            let patch = log[1]
            #expect(patch.path == "/tables/todo/a")
            #expect(patch.header("if-match") == "\"v1\"")
            #expect(patch.header("X-ZUMO-FEATURES") == "OL")
            #expect(patch.header("zumo-api-version") == "2.0.0")
            #expect(patch.header("Host") == "127.0.0.1:\(server.port)")
            #expect(patch.body == #"{"n":1}"#)
            let query = log[2]
            #expect(query.rawQuery == "$filter=(n%20eq%201)&$top=50&__includeDeleted=true")
            #expect(query.queryValue("$filter") == "(n eq 1)")
            #expect(query.query.map(\.name) == ["$filter", "$top", "__includeDeleted"])
        }
    }

    @Test func theRequestLogIsReadableOverHTTPAndControlRequestsAreNotLogged() async throws {
        try await ServerHarness.with { server in
            _ = try await server.send(.get, "/tables/todo?x=1")
            let log = try await server.send(.get, "/__test/requests").json()
            guard case .array(let entries) = log, case .object(let entry)? = entries.first else {
                Issue.record("unexpected log \(log)")
                return
            }
            #expect(entries.count == 1)
            #expect(entry["method"] == .string("GET"))
            #expect(entry["rawQuery"] == .string("x=1"))
            _ = try await server.send(.delete, "/__test/requests")
            #expect(try await server.controls.requests().isEmpty)
        }
    }

    @Test func seedingStoresRowsWithChosenUpdatedAtDeletedAndVersion() async throws {
        try await ServerHarness.with({ $0.softDelete = .allTables }) { server in
            let stamp = "2000-01-01T00:00:00.000Z"
            let seeded = try await server.send(
                .post,
                "/__test/seed/todo",
                json: """
                    [{"id":"a","updatedAt":"\(stamp)","version":"v-a"},
                     {"id":"b","updatedAt":"\(stamp)","deleted":true},
                     {"id":"c","updatedAt":"2000-01-02T00:00:00.000Z"}]
                    """
            )
            #expect(seeded.status == 201)
            let a = try await server.send(.get, "/tables/todo/a")
            #expect(a.header("ETag") == "\"v-a\"")
            #expect(try a.object().string("updatedAt") == stamp)
            #expect(try await server.send(.get, "/tables/todo").ids() == ["a", "c"])
            let same = try await server.send(
                .get,
                "/tables/todo?$filter=updatedAt%20le%20datetimeoffset'2000-01-01T00%3A00%3A00.000Z'&__includeDeleted=true"
            )
            #expect(try same.ids() == ["a", "b"])
        }
    }

    @Test func resetRemovesFaultsTheLogAndEveryRow() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            try await server.controls.addFault(FaultRule(path: "/tables/other", action: .respond(status: 500)))
            #expect(try await server.send(.post, "/__test/reset").status == 200)
            #expect(try await server.send(.get, "/tables/todo").ids() == [])
            #expect(try await server.send(.get, "/tables/other").status == 200)
            #expect(try await server.controls.requests().map(\.path) == ["/tables/todo", "/tables/other"])
        }
    }
}
