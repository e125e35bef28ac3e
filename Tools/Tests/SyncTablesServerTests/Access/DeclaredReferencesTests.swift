import Foundation
import HTTPTypes
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// The reference (foreign-key) check of declared tables, on both backends: a write that names a parent row
/// the caller cannot read is refused with 422, never with a conflict status.
@Suite("Declared references")
struct DeclaredReferencesTests {
    static let declarations = """
        tables:
          lists:
            access: owner
            ownerColumn: userId
            softDelete: true
            columns: { name: string }
          tasks:
            access: owner
            ownerColumn: userId
            columns: { title: string, listId: string, parentId: string }
            references: { listId: lists, parentId: tasks }
        """

    private func withServer(_ body: (SignedInServer) async throws -> Void) async throws {
        try await SignedInServer.with(declarations: Self.declarations, body)
    }

    @Test func anInsertNamingAnExistingParentIsStoredAndOneNamingNoneIsRefusedWith422NamingTheColumn()
        async throws
    {
        try await withServer { server in
            try await server.insert("lists", #"{"id":"l1","name":"groceries"}"#)
            try await server.insert("tasks", #"{"id":"t1","title":"milk","listId":"l1"}"#)

            let refused = try await server.send(.post, "/tables/tasks", json: #"{"id":"t2","listId":"nope"}"#)

            #expect(refused.status == 422)
            #expect(
                try refused.errorMessage()
                    == "The property 'listId' of table 'tasks' must name a row of table 'lists'; there is no row 'nope'."
            )
            #expect(try await server.send(.get, "/tables/tasks/t2").status == 404)
        }
    }

    @Test func aNullOrAbsentReferenceNeedsNoParent() async throws {
        try await withServer { server in
            try await server.insert("tasks", #"{"id":"t1","title":"loose","listId":null}"#)
            try await server.insert("tasks", #"{"id":"t2","title":"loose"}"#)
            #expect(try await server.send(.patch, "/tables/tasks/t1", json: #"{"listId":null}"#).status == 200)
        }
    }

    @Test func anUpdateIsCheckedWhenItSetsTheReferenceOnly() async throws {
        try await withServer { server in
            try await server.insert("lists", #"{"id":"l1","name":"groceries"}"#)
            try await server.insert("tasks", #"{"id":"t1","title":"milk","listId":"l1"}"#)
            try await server.insert("lists", #"{"id":"l2","name":"work"}"#)

            let moved = try await server.send(.patch, "/tables/tasks/t1", json: #"{"listId":"l2"}"#)
            let lost = try await server.send(.patch, "/tables/tasks/t1", json: #"{"listId":"gone"}"#)
            let renamed = try await server.send(.patch, "/tables/tasks/t1", json: #"{"title":"oat milk"}"#)

            #expect(moved.status == 200 && lost.status == 422 && renamed.status == 200)
            let stored = try await server.send(.get, "/tables/tasks/t1").object()
            #expect(stored["listId"] == "l2" && stored["title"] == "oat milk")
        }
    }

    @Test func aSoftDeletedParentIsNoParent() async throws {
        try await withServer { server in
            try await server.insert("lists", #"{"id":"l1","name":"old"}"#)
            #expect(try await server.send(.delete, "/tables/lists/l1").status == 200)

            let refused = try await server.send(.post, "/tables/tasks", json: #"{"id":"t1","listId":"l1"}"#)

            #expect(refused.status == 422)
        }
    }

    @Test func anotherUsersParentBehavesAsIfItDidNotExist() async throws {
        try await withServer { server in
            try await server.insert("lists", #"{"id":"theirs","name":"private"}"#)
            let intruder = try await server.token(of: "intruder")
            let headers = ["Authorization": "Bearer \(intruder)"]

            let refused = try await server.send(
                .post, "/tables/tasks", json: #"{"id":"t1","listId":"theirs"}"#, headers: headers)
            let missing = try await server.send(
                .post, "/tables/tasks", json: #"{"id":"t2","listId":"nothing"}"#, headers: headers)

            #expect(refused.status == 422 && missing.status == 422)
            #expect(
                try refused.errorMessage()?.replacingOccurrences(of: "theirs", with: "x")
                    == missing.errorMessage()?.replacingOccurrences(of: "nothing", with: "x"))
        }
    }

    @Test func aTableMayReferenceItsOwnRows() async throws {
        try await withServer { server in
            try await server.insert("tasks", #"{"id":"parent","title":"trip"}"#)
            try await server.insert("tasks", #"{"id":"child","title":"tickets","parentId":"parent"}"#)
            let refused = try await server.send(.post, "/tables/tasks", json: #"{"id":"c2","parentId":"c2"}"#)
            #expect(refused.status == 422)
        }
    }
}
