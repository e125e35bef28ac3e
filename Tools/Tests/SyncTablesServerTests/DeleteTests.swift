import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("DELETE, soft delete and undelete")
struct DeleteTests {
    private func softDeleteServer(_ body: (ServerHarness) async throws -> Void) async throws {
        try await ServerHarness.with({ $0.softDelete = .allTables }, body)
    }

    @Test func hardDeleteReturns200WithTheDeletedItemAndTheRowIsGone() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a","text":"x"}"#)
            let response = try await server.send(.delete, "/tables/todo/a")
            #expect(response.status == 200)
            #expect(try response.object() == stored)
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
            #expect(try await server.send(.get, "/tables/todo?__includeDeleted=true").ids() == [])
        }
    }

    @Test func deleteOfAnUnknownIdGets404() async throws {
        try await ServerHarness.with { server in
            let response = try await server.send(.delete, "/tables/todo/nope")
            #expect(response.status == 404)
            #expect(try response.errorMessage() == "The item does not exist")
        }
    }

    @Test func deleteWithAStaleIfMatchGets412WithTheServerItemAndKeepsTheRow() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a"}"#)
            let response = try await server.send(.delete, "/tables/todo/a", headers: ["If-Match": "\"old\""])
            #expect(response.status == 412)
            #expect(try response.object() == stored)
            #expect(try await server.send(.get, "/tables/todo/a").status == 200)
        }
    }

    @Test func deleteWithTheCurrentIfMatchSucceeds() async throws {
        try await ServerHarness.with { server in
            let stored = try await server.insert("todo", #"{"id":"a"}"#)
            let response = try await server.send(
                .delete, "/tables/todo/a", headers: ["If-Match": "\"\(stored.string("version")!)\""])
            #expect(response.status == 200)
        }
    }

    @Test func softDeleteMarksTheRowDeletedWithANewVersionAndUpdatedAt() async throws {
        try await softDeleteServer { server in
            let stored = try await server.insert("todo", #"{"id":"a"}"#)
            let response = try await server.send(.delete, "/tables/todo/a")
            #expect(response.status == 200)
            let item = try response.object()
            #expect(item["deleted"] == .bool(true))
            #expect(item.string("version") != stored.string("version"))
            #expect(item.string("updatedAt")! > stored.string("updatedAt")!)
            #expect(response.header("ETag") == "\"\(item.string("version")!)\"")
        }
    }

    @Test func softDeletedRowsAreHiddenUnlessIncludeDeletedIsGiven() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            try await server.insert("todo", #"{"id":"b"}"#)
            _ = try await server.send(.delete, "/tables/todo/a")
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
            #expect(try await server.send(.get, "/tables/todo").ids() == ["b"])
            #expect(try await server.send(.get, "/tables/todo?__includeDeleted=true").ids() == ["a", "b"])
            #expect(try await server.send(.get, "/tables/todo?__includedeleted=true").ids() == ["a", "b"])
            #expect(try await server.send(.get, "/tables/todo?__includeDeleted=false").ids() == ["b"])
            #expect(try await server.send(.get, "/tables/todo/a?__includeDeleted=true").status == 200)
        }
    }

    @Test func anEmptyIncludeDeletedValueMeansFalseForQueriesAndLookups() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            try await server.insert("todo", #"{"id":"b"}"#)
            _ = try await server.send(.delete, "/tables/todo/a")
            #expect(try await server.send(.get, "/tables/todo?__includeDeleted=").ids() == ["b"])
            #expect(try await server.send(.get, "/tables/todo?__includeDeleted").ids() == ["b"])
            #expect(try await server.send(.get, "/tables/todo/a?__includeDeleted=").status == 404)
        }
    }

    @Test func deletingAnAlreadySoftDeletedRowGets404() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            _ = try await server.send(.delete, "/tables/todo/a")
            #expect(try await server.send(.delete, "/tables/todo/a").status == 404)
        }
    }

    @Test func updatingASoftDeletedRowGets404() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            _ = try await server.send(.delete, "/tables/todo/a")
            #expect(try await server.send(.patch, "/tables/todo/a", json: #"{"n":1}"#).status == 404)
        }
    }

    @Test func postToAnItemUndeletesASoftDeletedRow() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a","text":"x"}"#)
            let deleted = try await server.send(.delete, "/tables/todo/a").object()
            let response = try await server.send(.post, "/tables/todo/a")
            #expect(response.status == 200)
            let item = try response.object()
            #expect(item["deleted"] == .bool(false))
            #expect(item["text"] == .string("x"))
            #expect(item.string("version") != deleted.string("version"))
            #expect(try await server.send(.get, "/tables/todo").ids() == ["a"])
        }
    }

    @Test func undeleteWithAStaleIfMatchGets412() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            _ = try await server.send(.delete, "/tables/todo/a")
            let response = try await server.send(.post, "/tables/todo/a", headers: ["If-Match": "\"old\""])
            #expect(response.status == 412)
            #expect(try response.object()["deleted"] == .bool(true))
        }
    }

    @Test func undeleteOfAnUnknownIdGets404() async throws {
        try await softDeleteServer { server in
            let response = try await server.send(.post, "/tables/todo/nope")
            #expect(response.status == 404)
        }
    }

    @Test func insertingTheIdOfASoftDeletedRowGets409WithTheTombstone() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            _ = try await server.send(.delete, "/tables/todo/a")
            let response = try await server.send(.post, "/tables/todo", json: #"{"id":"a"}"#)
            #expect(response.status == 409)
            #expect(try response.object()["deleted"] == .bool(true))
        }
    }

    @Test func aFilterAndTheSoftDeleteExclusionCombine() async throws {
        try await softDeleteServer { server in
            try await server.insert("todo", #"{"id":"a","n":1}"#)
            try await server.insert("todo", #"{"id":"b","n":1}"#)
            _ = try await server.send(.delete, "/tables/todo/a")
            #expect(try await server.send(.get, "/tables/todo?$filter=n%20eq%201").ids() == ["b"])
            let all = try await server.send(.get, "/tables/todo?$filter=n%20eq%201&__includeDeleted=true")
            #expect(try all.ids() == ["a", "b"])
        }
    }

    @Test func undeleteOnATableWithoutSoftDeleteGets405() async throws {
        try await ServerHarness.with { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            #expect(try await server.send(.post, "/tables/todo/a").status == 405)
        }
    }

    @Test func softDeleteCanBeLimitedToListedTables() async throws {
        try await ServerHarness.with({ $0.softDelete = .tables(["soft"]) }) { server in
            try await server.insert("soft", #"{"id":"a"}"#)
            try await server.insert("hard", #"{"id":"a"}"#)
            _ = try await server.send(.delete, "/tables/soft/a")
            _ = try await server.send(.delete, "/tables/hard/a")
            #expect(try await server.send(.get, "/tables/soft?__includeDeleted=true").ids() == ["a"])
            #expect(try await server.send(.get, "/tables/hard?__includeDeleted=true").ids() == [])
        }
    }
}

@Suite("DELETE answering 204")
struct DeleteNoContentTests {
    @Test func deleteReturnsNoContentAnswers204WithAnEmptyBodyAndRemovesTheRow() async throws {
        try await ServerHarness.with({ $0.deleteReturnsNoContent = true }) { server in
            try await server.insert("todo", #"{"id":"a"}"#)
            let response = try await server.send(.delete, "/tables/todo/a")
            #expect(response.status == 204)
            #expect(response.body.isEmpty)
            #expect(try await server.send(.get, "/tables/todo/a").status == 404)
        }
    }
}
