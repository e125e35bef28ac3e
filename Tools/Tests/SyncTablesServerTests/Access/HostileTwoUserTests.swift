import Foundation
import HTTPTypes
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// User B (bob) tries every path of the protocol on user A's (alice's) rows, with forged owners, crafted
/// filters, borrowed and tampered next links, batches mixing both users' ids and forged tokens, on the backend
/// `SYNC_TEST_BACKEND` selects. Every attempt is counted; none may show a byte of alice's rows or change one.
@Suite("Hostile second user")
struct HostileTwoUserTests {
    static let declarations = """
        tables:
          notes:
            access: owner
            ownerColumn: userId
            softDelete: true
            columns: { text: string, done: bool, rank: number }
          plans:
            access: claim
            claim: team
            claimColumn: teamId
            columns: { title: string }
          announcements:
            access: read-only
            columns: { title: string }
        """

    /// What alice's rows carry and bob must never see: ids and a text.
    static let aliceIDs = ["alice-note-1", "alice-note-2", "alice-note-3", "alice-note-4", "alice-gone-5"]
    static let secret = "alice-secret"

    @Test func userBNeitherSeesNorChangesUserAsRowsOnAnyPath() async throws {
        try await Fixture.with { fixture in
            let attack = Attack(fixture: fixture)
            let before = try await fixture.aliceSnapshot()
            try await attack.readPaths()
            try await attack.filters()
            try await attack.pagingOptions()
            try await attack.nextLinks()
            try await attack.writes()
            try await attack.batch()
            try await attack.claimScopedTable()
            try await attack.forgedTokens()
            let after = try await fixture.aliceSnapshot()
            #expect(after == before, "alice's rows changed")
            let report = attack.report
            print("Hostile second user: \(report.attempts) attempts, \(report.leaks) leaks")
            #expect(report.attempts >= 80)
            #expect(report.leaks == 0)
        }
    }

    @Test func anInsertedRowIsStampedWithTheCallersSubjectAndAForgedOwnerIsRefused() async throws {
        try await Fixture.with { fixture in
            let created = try await fixture.send(.post, "/tables/notes", json: #"{"id":"b9","text":"x"}"#, as: .bob)
            #expect(created.status == 201)
            #expect(try created.object().string("userId") == "bob")
            let own = try await fixture.send(
                .post, "/tables/notes", json: #"{"id":"b10","userId":"bob"}"#, as: .bob)
            #expect(own.status == 201)
            let forged = try await fixture.send(
                .post, "/tables/notes", json: #"{"id":"b11","userId":"alice"}"#, as: .bob)
            #expect(forged.status == 400)
            #expect(try forged.errorMessage()?.contains("filled in by the server") == true)
            #expect(try await fixture.send(.get, "/tables/notes/b11", as: .bob).status == 404)
            #expect(try await fixture.send(.get, "/tables/notes/b11", as: .alice).status == 404)
        }
    }

    @Test func aTeamSeesItsTeamsRowsAndATokenWithoutTheClaimIsRefused() async throws {
        try await Fixture.with { fixture in
            let carol = try await fixture.send(.get, "/tables/plans", as: .carol)
            #expect(try carol.ids() == ["red-plan"])
            let made = try await fixture.send(.post, "/tables/plans", json: #"{"id":"red-2","title":"t"}"#, as: .carol)
            #expect(try made.object().string("teamId") == "red")
            #expect(try await fixture.send(.get, "/tables/plans", as: .alice).ids() == ["red-2", "red-plan"])
            let noTeam = try await fixture.send(.get, "/tables/plans", as: .noTeam)
            #expect(noTeam.status == 403)
        }
    }

    // MARK: The attacker

    /// Bob's attempts, each checked for a leak.
    final class Attack: Sendable {
        let fixture: Fixture
        private let counts = LockedCounts()

        init(fixture: Fixture) {
            self.fixture = fixture
        }

        var report: (attempts: Int, leaks: Int) { counts.value }

        /// Sends one request as `user`, counts it, and records a leak when alice's data shows in it.
        @discardableResult
        func attempt(
            _ method: HTTPRequest.Method, _ path: String, json: String? = nil, as user: Fixture.User = .bob,
            headers: [String: String] = [:], expect statuses: Set<Int>? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> HTTPResult {
            let response = try await fixture.send(method, path, json: json, as: user, headers: headers)
            let leaked = fixture.leaks(in: response)
            counts.record(leak: leaked)
            #expect(!leaked, "\(method) \(path) showed alice's data: \(response.text)", sourceLocation: sourceLocation)
            if let statuses {
                #expect(
                    statuses.contains(response.status), "\(method) \(path): \(response.status) \(response.text)",
                    sourceLocation: sourceLocation)
            }
            return response
        }

        func readPaths() async throws {
            let list = try await attempt(.get, "/tables/notes", expect: [200])
            #expect(try list.ids() == ["bob-note-1"])
            for id in HostileTwoUserTests.aliceIDs {
                try await attempt(.get, "/tables/notes/\(id)", expect: [404])
                try await attempt(.get, "/tables/notes/\(id)?__includeDeleted=true", expect: [404])
            }
            try await attempt(.get, "/tables/notes?__includeDeleted=true", expect: [200])
        }

        func filters() async throws {
            let filters = [
                "userId eq 'alice'", "userId eq 'alice' or true", "(userId eq 'alice') or (1 eq 1)",
                "not (userId eq 'bob')", "userId ne 'bob'", "substringof('ali', userId)",
                "startswith(userId, 'a') or userId eq 'bob'", "id eq 'alice-note-1'", "true", "1 eq 1",
                "text eq '\(HostileTwoUserTests.secret)'", "userId eq null or userId ne null",
                "tolower(userId) eq 'alice'", "length(userId) gt 0 or length(userId) eq 0",
                "id in ('alice-note-1', 'bob-note-1')", "not (false)", "userId eq 'bob' or userId eq 'alice'",
                "((((userId eq 'alice'))))", "deleted eq true or deleted eq false",
            ]
            for filter in filters {
                let encoded = filter.queryEncoded
                try await attempt(.get, "/tables/notes?$filter=\(encoded)", expect: [200, 400])
                try await attempt(
                    .get, "/tables/notes?$filter=\(encoded)&__includeDeleted=true&$inlinecount=allpages",
                    expect: [200, 400])
            }
        }

        func pagingOptions() async throws {
            let counted = try await attempt(.get, "/tables/notes?$inlinecount=allpages&$top=0", expect: [200])
            #expect(try counted.object()["count"] == .integer(1), "the count is of bob's rows only")
            for skip in 0..<6 {
                try await attempt(.get, "/tables/notes?$top=1&$skip=\(skip)&$orderby=userId", expect: [200])
            }
            try await attempt(.get, "/tables/notes?$select=userId,text&$orderby=userId%20desc", expect: [200])
            try await attempt(.get, "/tables/notes?$orderby=text,updatedAt%20desc&$top=3", expect: [200])
        }

        func nextLinks() async throws {
            // Alice's own next link, replayed by bob: the position is alice's, the scope is bob's.
            let link = try #require(try await fixture.firstNextLink(as: .alice))
            try await attempt(.get, link, expect: [200])
            let token = link.components(separatedBy: "$skiptoken=").last.map { $0.components(separatedBy: "&")[0] }
            for tampered in [
                "x", "AAAA", String((token ?? "").reversed()), (token ?? "") + "00", "%00",
                String(repeating: "A", count: 500),
            ] {
                try await attempt(
                    .get, "/tables/notes?$orderby=updatedAt,id&$skiptoken=\(tampered)", expect: [200, 400])
            }
        }

        func writes() async throws {
            for id in HostileTwoUserTests.aliceIDs {
                let version = try await fixture.aliceVersion(of: id)
                try await attempt(.patch, "/tables/notes/\(id)", json: #"{"text":"bob was here"}"#, expect: [404])
                try await attempt(
                    .patch, "/tables/notes/\(id)", json: #"{"text":"bob"}"#, headers: ["If-Match": "\"\(version)\""],
                    expect: [404])
                try await attempt(
                    .patch, "/tables/notes/\(id)", json: #"{"text":"bob","version":"\#(version)"}"#, expect: [404])
                try await attempt(.delete, "/tables/notes/\(id)", expect: [404])
                try await attempt(
                    .delete, "/tables/notes/\(id)", headers: ["If-Match": "\"\(version)\""], expect: [404])
                // Restoring alice's soft-deleted row, or any of hers.
                try await attempt(.post, "/tables/notes/\(id)", expect: [404])
                // An insert with her id: the id is taken, and that is all the answer says.
                try await attempt(.post, "/tables/notes", json: #"{"id":"\#(id)","text":"mine"}"#, expect: [409])
                try await attempt(
                    .post, "/tables/notes", json: #"{"id":"\#(id)","userId":"alice","text":"mine"}"#, expect: [400])
            }
            // Forged owners: on insert, and moving bob's own row to alice.
            try await attempt(.post, "/tables/notes", json: #"{"userId":"alice","text":"forged"}"#, expect: [400])
            try await attempt(.patch, "/tables/notes/bob-note-1", json: #"{"userId":"alice"}"#, expect: [400])
            try await attempt(.patch, "/tables/notes/bob-note-1", json: #"{"userId":null}"#, expect: [400])
            // The read-only table.
            try await attempt(.get, "/tables/announcements", expect: [200])
            try await attempt(.post, "/tables/announcements", json: #"{"title":"spam"}"#, expect: [403])
            try await attempt(.patch, "/tables/announcements/welcome", json: #"{"title":"spam"}"#, expect: [403])
            try await attempt(.delete, "/tables/announcements/welcome", expect: [403])
        }

        func batch() async throws {
            var operations: [String] = []
            for id in HostileTwoUserTests.aliceIDs {
                operations += [
                    #"{"method":"PATCH","table":"notes","id":"\#(id)","body":{"text":"bob"}}"#,
                    #"{"method":"DELETE","table":"notes","id":"\#(id)"}"#,
                    #"{"method":"POST","table":"notes","body":{"id":"\#(id)","text":"bob"}}"#,
                    #"{"method":"POST","table":"notes","id":"\#(id)"}"#,
                ]
            }
            operations.append(#"{"method":"PATCH","table":"notes","id":"bob-note-1","body":{"rank":7}}"#)
            let response = try await attempt(
                .post, "/sync/batch", json: #"{"operations":[\#(operations.joined(separator: ","))]}"#, expect: [200])
            guard case .array(let results)? = try response.object()["results"] else {
                Issue.record("no results: \(response.text)")
                return
            }
            let statuses = results.compactMap { result -> Int? in
                if case .object(let object) = result, case .integer(let status)? = object["status"] {
                    return Int(status)
                }
                return nil
            }
            #expect(statuses.count == operations.count)
            #expect(statuses.dropLast().allSatisfy { [404, 409].contains($0) }, "\(statuses)")
            #expect(statuses.last == 200, "bob's own row is his to change")
        }

        func claimScopedTable() async throws {
            let blue = try await attempt(.get, "/tables/plans", expect: [200])
            #expect(try blue.ids() == [])
            try await attempt(.get, "/tables/plans/red-plan", expect: [404])
            try await attempt(.patch, "/tables/plans/red-plan", json: #"{"title":"x"}"#, expect: [404])
            try await attempt(.post, "/tables/plans", json: #"{"title":"x","teamId":"red"}"#, expect: [400])
            try await attempt(.get, "/tables/plans", as: .noTeam, expect: [403])
        }

        func forgedTokens() async throws {
            for token in try await fixture.forgedTokens() {
                for (method, path) in [
                    (HTTPRequest.Method.get, "/tables/notes"), (.get, "/tables/notes/alice-note-1"),
                    (.patch, "/tables/notes/alice-note-1"),
                ] {
                    let json = method == .patch ? #"{"text":"x"}"# : nil
                    try await attempt(method, path, json: json, as: .raw(token), expect: [401])
                }
            }
        }
    }

    /// Attempts and leaks, counted across tasks.
    final class LockedCounts: Sendable {
        private let state = LockedState((attempts: 0, leaks: 0))
        var value: (attempts: Int, leaks: Int) { state.withLock { $0 } }
        func record(leak: Bool) {
            state.withLock {
                $0.attempts += 1; if leak { $0.leaks += 1 }
            }
        }
    }

    // MARK: The server and its users

    struct Fixture: Sendable {
        let server: ServerHarness
        let tokens: [String: String]
        let key: DevelopmentKey
        let folder: URL

        enum User: Sendable {
            case alice, bob, carol, noTeam
            case raw(String)
        }

        static func with(_ body: (Fixture) async throws -> Void) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let keyPath = folder.appendingPathComponent("dev-key.json").path
            let key = try DevelopmentKey.loadOrCreate(at: keyPath)
            let tokens = [
                "alice": try await key.token(subject: "alice", claims: ["team": "red"]),
                "bob": try await key.token(subject: "bob", claims: ["team": "blue"]),
                "carol": try await key.token(subject: "carol", claims: ["team": "red"]),
                "noTeam": try await key.token(subject: "dave"),
            ]
            let declarations = try TableDeclarations(yaml: HostileTwoUserTests.declarations)
            try await ServerHarness.with({
                $0.authentication = .jwt(JWTVerification(keys: .file(path: keyPath)))
                $0.declaredTables = declarations
                $0.pageSize = 2
            }) { server in
                let fixture = Fixture(server: server, tokens: tokens, key: key, folder: folder)
                try await fixture.seed()
                try await body(fixture)
            }
        }

        func send(
            _ method: HTTPRequest.Method, _ path: String, json: String? = nil, as user: User,
            headers: [String: String] = [:]
        ) async throws -> HTTPResult {
            var headers = headers
            switch user {
            case .alice: headers["Authorization"] = "Bearer \(tokens["alice"]!)"
            case .bob: headers["Authorization"] = "Bearer \(tokens["bob"]!)"
            case .carol: headers["Authorization"] = "Bearer \(tokens["carol"]!)"
            case .noTeam: headers["Authorization"] = "Bearer \(tokens["noTeam"]!)"
            case .raw(let token): headers["Authorization"] = "Bearer \(token)"
            }
            return try await server.send(method, path, json: json, headers: headers)
        }

        private func seed() async throws {
            for (index, id) in HostileTwoUserTests.aliceIDs.enumerated() {
                let made = try await send(
                    .post, "/tables/notes",
                    json: #"{"id":"\#(id)","text":"\#(HostileTwoUserTests.secret)","rank":\#(index)}"#,
                    as: .alice)
                try #require(made.status == 201, "\(made.text)")
            }
            try #require(try await send(.delete, "/tables/notes/alice-gone-5", as: .alice).status == 200)
            let bobs = try await send(.post, "/tables/notes", json: #"{"id":"bob-note-1","text":"b"}"#, as: .bob)
            try #require(bobs.status == 201)
            let plan = try await send(.post, "/tables/plans", json: #"{"id":"red-plan","title":"t"}"#, as: .alice)
            try #require(plan.status == 201)
            _ = try await server.controls.seed(
                table: "announcements", items: [JSONObject(["id": "welcome", "title": "Welcome"])])
        }

        /// Alice's rows as she reads them, tombstones included, in id order: what no attempt may change.
        func aliceSnapshot() async throws -> [String] {
            var texts: [String] = []
            for table in ["notes", "plans"] {
                let response = try await send(
                    .get, "/tables/\(table)?__includeDeleted=true&$orderby=id&$top=100", as: .alice)
                var next: String? = nil
                texts += try response.objects().map { String(decoding: $0.jsonBytes, as: UTF8.self) }
                next = nextLink(of: response)
                while let link = next {
                    let page = try await send(.get, link, as: .alice)
                    texts += try page.objects().map { String(decoding: $0.jsonBytes, as: UTF8.self) }
                    next = nextLink(of: page)
                }
            }
            return texts
        }

        func aliceVersion(of id: String) async throws -> String {
            let response = try await send(.get, "/tables/notes/\(id)?__includeDeleted=true", as: .alice)
            return try response.object().string("version") ?? ""
        }

        func firstNextLink(as user: User) async throws -> String? {
            let response = try await send(.get, "/tables/notes?$orderby=updatedAt,id&__includeDeleted=true", as: user)
            return nextLink(of: response)
        }

        func nextLink(of response: HTTPResult) -> String? {
            response.header("Link").map { link in
                let target = String(link.prefix { $0 != ";" }).trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
                return String(target.dropFirst("http://127.0.0.1:\(server.port)".count))
            }
        }

        /// Whether a response shows any of alice's ids, her text or her rows' versions.
        func leaks(in response: HTTPResult) -> Bool {
            let text = response.text + response.headers.map { "\($0.name): \($0.value)" }.joined()
            return HostileTwoUserTests.aliceIDs.contains { text.contains($0) }
                || text.contains(HostileTwoUserTests.secret)
                || text.contains("red-plan")
        }

        /// Tokens that must all be refused: another key's, `alg: none`, alice's with bob's subject pasted in,
        /// expired, and garbage.
        func forgedTokens() async throws -> [String] {
            let otherKey = try DevelopmentKey.loadOrCreate(at: folder.appendingPathComponent("other-key.json").path)
            let foreign = try await otherKey.token(subject: "alice", claims: ["team": "red"])
            let expired = try await key.token(
                subject: "alice", expiresIn: .seconds(60), now: Date().addingTimeInterval(-3600))
            let alice = tokens["alice"]!.split(separator: ".").map(String.init)
            let claims = Base64URLText.encode(#"{"sub":"alice","exp":4102444800,"team":"red"}"#)
            let none = Base64URLText.encode(#"{"alg":"none","typ":"JWT"}"#) + "." + claims + "."
            let spliced = alice[0] + "." + claims + "." + alice[2]
            let bobSigned = tokens["bob"]!.split(separator: ".").map(String.init)
            let swapped = bobSigned[0] + "." + alice[1] + "." + bobSigned[2]
            return [foreign, expired, none, spliced, swapped, "garbage", alice[0] + "." + alice[1]]
        }
    }
}

/// Base64url text for hand-made (forged) tokens in tests.
enum Base64URLText {
    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
