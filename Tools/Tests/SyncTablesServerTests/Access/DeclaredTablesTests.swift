import Foundation
import HTTPTypes
import Logging
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Declared tables: what exists, what a write may hold, the `authenticated` and `read-only` rules, on both
/// backends; the owner and claim rules are proven by ``HostileTwoUserTests``.
@Suite("Declared tables")
struct DeclaredTablesTests {
    static let declarations = """
        tables:
          items:
            access: authenticated
            softDelete: true
            columns:
              title: { type: string, required: true }
              done: bool
              rank: number
              count: integer
              due: date
              tags: array
              meta: object
              any: json
          announcements:
            access: read-only
            columns: { title: string }
          notes:
            access: owner
            ownerColumn: userId
            columns: { text: string }
        """

    private func withDeclaredServer(_ body: (SignedInServer) async throws -> Void) async throws {
        try await SignedInServer.with(declarations: Self.declarations, body)
    }

    @Test func anUndeclaredTableDoesNotExistForAnyMethod() async throws {
        try await withDeclaredServer { server in
            for (method, path, json) in [
                (HTTPRequest.Method.get, "/tables/other", nil), (.post, "/tables/other", #"{"id":"a"}"#),
                (.get, "/tables/other/a", nil), (.patch, "/tables/other/a", #"{"x":1}"#),
                (.delete, "/tables/other/a", nil),
            ] as [(HTTPRequest.Method, String, String?)] {
                let response = try await server.send(method, path, json: json)
                #expect(response.status == 404, "\(method) \(path)")
                #expect(try response.errorMessage() == "The table 'other' does not exist.")
            }
        }
    }

    @Test func aWriteNamingUndeclaredPropertiesIsRefusedNamingThemAndStoresNothing() async throws {
        try await withDeclaredServer { server in
            let response = try await server.send(
                .post, "/tables/items", json: #"{"id":"a","title":"t","colour":"red","size":3}"#)
            #expect(response.status == 400)
            let message = try #require(try response.errorMessage())
            #expect(message.contains("'colour', 'size'"), "\(message)")
            #expect(try await server.send(.get, "/tables/items/a").status == 404)

            try await server.insert("items", #"{"id":"b","title":"t"}"#)
            let patch = try await server.send(.patch, "/tables/items/b", json: #"{"colour":"red"}"#)
            #expect(patch.status == 400)
            #expect(try await server.send(.get, "/tables/items/b").object()["colour"] == nil)
        }
    }

    @Test(arguments: [
        (#""title":5"#, "'title' of table 'items' must be a string; got a number"),
        (#""title":"t","done":"yes""#, "must be true or false; got a string"),
        (#""title":"t","rank":"1""#, "must be a number"),
        (#""title":"t","count":1.5"#, "must be a whole number"),
        (#""title":"t","due":"tomorrow""#, "must be an ISO 8601 date-time string"),
        (#""title":"t","tags":{}"#, "must be an array"),
        (#""title":"t","meta":[]"#, "must be an object"),
        (#""done":true"#, "'title' of table 'items' is required"),
        (#""title":null"#, "is required; it cannot be null"),
    ])
    func aValueOfTheWrongTypeOrAMissingRequiredOneIsRefused(properties: String, expected: String) async throws {
        try await withDeclaredServer { server in
            let response = try await server.send(.post, "/tables/items", json: "{\"id\":\"a\",\(properties)}")
            #expect(response.status == 400)
            let message = try #require(try response.errorMessage())
            #expect(message.contains(expected), "\(message)")
            #expect(try await server.send(.get, "/tables/items/a").status == 404)
        }
    }

    @Test func valuesOfTheDeclaredTypesAndNullsOfOptionalPropertiesAreStored() async throws {
        try await withDeclaredServer { server in
            let stored = try await server.insert(
                "items",
                #"""
                {"id":"a","title":"t","done":true,"rank":1.5,"count":3,"due":"2026-11-28T09:30:00.000Z",
                 "tags":["x"],"meta":{"k":1},"any":"anything"}
                """#)
            #expect(stored["count"] == .integer(3))
            let patched = try await server.send(.patch, "/tables/items/a", json: #"{"done":null,"count":4.0}"#)
            #expect(patched.status == 200)
            #expect(try patched.object()["done"] == .null)
            let cleared = try await server.send(.patch, "/tables/items/a", json: #"{"title":null}"#)
            #expect(cleared.status == 400)
        }
    }

    @Test func aReadOnlyTableIsReadButNeverWritten() async throws {
        try await withDeclaredServer { server in
            let seeded = try await server.controls.seed(
                table: "announcements", items: [JSONObject(["id": "a", "title": "Welcome"])])
            #expect(seeded.count == 1)
            #expect(try await server.send(.get, "/tables/announcements").ids() == ["a"])
            #expect(try await server.send(.get, "/tables/announcements/a").status == 200)
            for (method, path, json) in [
                (HTTPRequest.Method.post, "/tables/announcements", #"{"id":"b","title":"x"}"#),
                (.patch, "/tables/announcements/a", #"{"title":"x"}"#),
                (.delete, "/tables/announcements/a", nil),
            ] as [(HTTPRequest.Method, String, String?)] {
                let response = try await server.send(method, path, json: json)
                #expect(response.status == 403, "\(method)")
                #expect(try response.errorMessage() == "Forbidden: the table 'announcements' is read-only.")
            }
            #expect(try await server.send(.get, "/tables/announcements/a").object().string("title") == "Welcome")
        }
    }

    @Test func aQueryNamingAnUndeclaredPropertyIsRefused() async throws {
        try await withDeclaredServer { server in
            for query in ["$filter=colour%20eq%20'red'", "$orderby=colour", "$select=title,colour"] {
                let response = try await server.send(.get, "/tables/items?\(query)")
                #expect(response.status == 400, "\(query)")
                #expect(try response.errorMessage()?.contains("has no property 'colour'") == true)
            }
            #expect(try await server.send(.get, "/tables/items?$filter=done%20eq%20true&$orderby=rank").status == 200)
        }
    }

    @Test func everyDeclaredTableRefusesARequestWithoutAVerifiedToken() async throws {
        try await withDeclaredServer { server in
            for path in ["/tables/items", "/tables/announcements", "/tables/notes"] {
                let response = try await server.send(.get, path, headers: ["Authorization": "Bearer nonsense"])
                #expect(response.status == 401, "\(path)")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
        }
    }

    @Test func withoutJWTVerificationNobodyReachesADeclaredTableAndTheLogSaysSo() async throws {
        let logs = CapturedLogs()
        let declarations = try TableDeclarations(yaml: Self.declarations)
        try await ServerHarness.with({
            $0.declaredTables = declarations
            $0.authToken = "s3cret"
            $0.logger = logs.logger()
        }) { server in
            for (method, path, json) in [
                (HTTPRequest.Method.get, "/tables/items", nil), (.post, "/tables/items", #"{"title":"t"}"#),
                (.get, "/tables/announcements", nil), (.get, "/tables/notes", nil),
            ] as [(HTTPRequest.Method, String, String?)] {
                let response = try await server.send(
                    method, path, json: json, headers: ["Authorization": "Bearer s3cret"])
                #expect(response.status == 401, "\(method) \(path)")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
        }
        #expect(logs.all.contains { $0.message.contains("Declared tables without JWT verification") })
    }

    @Test func aDeclaredSoftDeleteTableKeepsTombstones() async throws {
        try await withDeclaredServer { server in
            try await server.insert("items", #"{"id":"a","title":"t"}"#)
            #expect(try await server.send(.delete, "/tables/items/a").status == 200)
            let all = try await server.send(.get, "/tables/items?__includeDeleted=true")
            #expect(try all.objects().first?["deleted"] == .bool(true))
            #expect(try await server.send(.post, "/tables/items/a").status == 200)
        }
    }

    @Test func aServerWithoutDeclarationsSaysInItsLogThatItIsInDevelopmentMode() async throws {
        let logs = CapturedLogs()
        try await ServerHarness.with({ $0.logger = logs.logger() }) { _ in }
        #expect(logs.all.contains { $0.message.contains("Development mode") })
        let declared = CapturedLogs()
        let declarations = try TableDeclarations(yaml: Self.declarations)
        try await ServerHarness.with({
            $0.declaredTables = declarations
            $0.logger = declared.logger()
        }) { _ in }
        #expect(!declared.all.contains { $0.message.contains("Development mode") })
    }
}
