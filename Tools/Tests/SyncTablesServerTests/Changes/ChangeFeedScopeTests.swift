import Foundation
import HTTPTypes
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Several users watch change feeds while one of them writes: a feed carries a change only when its caller may
/// read the row, for owner and claim tables, live and replayed, with and without `tables=` (on the backend
/// `SYNC_TEST_BACKEND` selects). Every (feed, write) pair is an attempt; none may leak.
@Suite("Change feed: scope")
struct ChangeFeedScopeTests {
    static let declarations = """
        tables:
          notes:
            access: owner
            ownerColumn: userId
            softDelete: true
            columns: { text: string }
          plans:
            access: claim
            claim: team
            claimColumn: teamId
            columns: { title: string }
          announcements:
            access: read-only
            columns: { title: string }
          shared:
            access: authenticated
            columns: { text: string }
        """

    /// Alice writes rows of hers and of her team (red) in every way; the others' feeds, live and resumed,
    /// carry none of her notes, and only her team's feeds carry her plans.
    @Test(.timeLimit(.minutes(3)))
    func anotherUsersChangesNeverReachAFeed() async throws {
        try await Users.with { users in
            let hub = try #require(users.server.server.changes)
            // `red` is a user whose subject is alice's team: a scope value of one table must not open another.
            let watchers: [(user: String, query: String)] = [
                ("bob", ""), ("bob", "?tables=notes"), ("bob", "?tables=notes,plans,shared"), ("dave", ""),
                ("red", ""), ("red", "?tables=plans"), ("carol", ""), ("carol", "?tables=notes"),
            ]
            var feeds: [(user: String, query: String, feed: EventStreamClient)] = []
            for watcher in watchers {
                let feed = try await users.openFeed(as: watcher.user, query: watcher.query)
                try #require(feed.status == 200, "\(watcher)")
                #expect(try await feed.next()?.name == "ready")
                feeds.append((watcher.user, watcher.query, feed))
            }
            defer { for entry in feeds { entry.feed.close() } }
            let before = hub.position

            // When alice writes her notes and her team's plans in every way there is
            let aliceWrites = try await users.aliceWritesEverything()
            let aliceEnd = before.sequence + UInt64(aliceWrites.count)
            try await eventually("the hub heard of alice's writes") { hub.position.sequence == aliceEnd }
            let alices = (before.sequence + 1)...aliceEnd

            // And each watcher then writes rows of its own, which end what its feeds must show
            for user in ["bob", "dave", "red", "carol"] { try await users.writeMarkers(as: user) }

            // Then no feed carried a note of alice's, and only red team members' feeds carried her plans
            var attempts = 0
            var leaks: [String] = []
            func check(_ events: [EventStreamClient.Event], user: String, query: String, label: String) {
                attempts += aliceWrites.count
                let fromAlice = events.filter { event in
                    event.id.flatMap(ChangePosition.init).map { alices.contains($0.sequence) } ?? false
                }
                let allowed = user == "carol" ? fromAlice.filter { $0.table == "plans" } : []
                leaks += fromAlice.filter { !allowed.contains($0) }.map { "\(label) \(user)\(query): \($0)" }
                if user == "carol", query.isEmpty {
                    #expect(allowed.count == aliceWrites.filter { $0 == "plans" }.count, "\(label)")
                }
            }
            let afterAlice = { (event: EventStreamClient.Event) in
                (event.id.flatMap(ChangePosition.init)?.sequence ?? 0) > aliceEnd
            }
            for entry in feeds {
                let events = try await entry.feed.events(through: afterAlice)
                check(events, user: entry.user, query: entry.query, label: "live")
            }

            // And resumed feeds replay nothing of alice's either
            for watcher in watchers {
                let resumed = try await users.openFeed(
                    as: watcher.user, query: watcher.query, headers: ["Last-Event-ID": before.description])
                defer { resumed.close() }
                #expect(try await resumed.next()?.name == "ready")
                let replayed = try await resumed.events(through: afterAlice)
                check(replayed, user: watcher.user, query: watcher.query, label: "resumed")
            }
            print("Change feed scope: \(attempts) attempts, \(leaks.count) leaks")
            #expect(attempts >= 300)
            #expect(leaks.isEmpty, "\(leaks)")
        }
    }

    @Test func aFilterNamingATableTheCallerMayNotReadAnswersAsTheTableWould() async throws {
        try await Users.with { users in
            var attempts = 0
            let refusals: [(user: String?, query: String, status: Int)] = [
                ("dave", "?tables=plans", 403),  // no team claim
                ("dave", "?tables=notes,plans", 403),
                ("bob", "?tables=secrets", 404),  // not declared
                ("bob", "?tables=NOTES", 404),  // declared names are exact
                ("bob", "?tables=__synctables_tables", 404),
                (nil, "", 401),  // no token
                (nil, "?tables=notes", 401),
            ]
            for refusal in refusals {
                let feed = try await users.openFeed(as: refusal.user, query: refusal.query)
                attempts += 1
                #expect(feed.status == refusal.status, "\(refusal)")
                if refusal.status == 401 { #expect(feed.header("WWW-Authenticate") != nil) }
                #expect(try await !feed.bodyText().contains("alice"))
                feed.close()
            }
            for forged in ["not-a-token", users.tokens["alice"]! + "x"] {
                let feed = try await EventStreamClient.open(
                    port: users.server.port, path: "/sync/changes", headers: ["Authorization": "Bearer \(forged)"])
                attempts += 1
                #expect(feed.status == 401)
                feed.close()
            }
            #expect(attempts == 9)
        }
    }

    @Test func aCallerWithoutTheClaimStillGetsTheTablesItMayRead() async throws {
        try await Users.with { users in
            let feed = try await users.openFeed(as: "dave")
            defer { feed.close() }
            #expect(try await feed.next()?.name == "ready")
            #expect(try await users.send(.post, "/tables/shared", json: #"{"id":"s1"}"#, as: "alice").status == 201)
            let events = try await feed.events(through: { $0.table == "shared" })
            #expect(events.compactMap(\.table) == ["shared"])
        }
    }

    @Test func aTokenWhoseSubjectIsTooLongToOwnRowsIsRefusedOnOwnerTables() async throws {
        try await Users.with { users in
            let long = String(repeating: "a", count: ChangeAnnouncement.maxScopeBytes + 1)
            let token = try await users.key.token(subject: long)
            let response = try await users.server.send(
                .post, "/tables/notes", json: #"{"id":"l"}"#, headers: ["Authorization": "Bearer \(token)"])
            #expect(response.status == 403)
            let shared = try await users.server.send(
                .post, "/tables/shared", json: #"{"id":"l"}"#, headers: ["Authorization": "Bearer \(token)"])
            #expect(shared.status == 201)
        }
    }

    /// A server with the declarations above, verifying tokens of a development key, and its users.
    struct Users: Sendable {
        let server: ServerHarness
        let key: DevelopmentKey
        let tokens: [String: String]

        static func with(_ body: (Users) async throws -> Void) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-scope-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let keyPath = folder.appendingPathComponent("dev-key.json").path
            let key = try DevelopmentKey.loadOrCreate(at: keyPath)
            let tokens = [
                "alice": try await key.token(subject: "alice", claims: ["team": "red"]),
                "bob": try await key.token(subject: "bob", claims: ["team": "blue"]),
                "carol": try await key.token(subject: "carol", claims: ["team": "red"]),
                "red": try await key.token(subject: "red", claims: ["team": "blue"]),
                "dave": try await key.token(subject: "dave"),
            ]
            let declarations = try TableDeclarations(yaml: ChangeFeedScopeTests.declarations)
            try await ServerHarness.with({
                $0.authentication = .jwt(JWTVerification(keys: .file(path: keyPath)))
                $0.declaredTables = declarations
            }) { server in
                try await body(Users(server: server, key: key, tokens: tokens))
            }
        }

        func send(_ method: HTTPRequest.Method, _ path: String, json: String? = nil, as user: String) async throws
            -> HTTPResult
        {
            try await server.send(method, path, json: json, headers: ["Authorization": "Bearer \(tokens[user]!)"])
        }

        func openFeed(as user: String?, query: String = "", headers: [String: String] = [:]) async throws
            -> EventStreamClient
        {
            var headers = headers
            if let user { headers["Authorization"] = "Bearer \(tokens[user]!)" }
            return try await server.openFeed(query: query, headers: headers)
        }

        /// Every kind of write of alice's rows: the tables written, in order.
        func aliceWritesEverything() async throws -> [String] {
            var tables: [String] = []
            func expectWrite(_ method: HTTPRequest.Method, _ path: String, _ json: String?, _ table: String)
                async throws
            {
                let response = try await send(method, path, json: json, as: "alice")
                try #require((200...201).contains(response.status), "\(method) \(path): \(response.text)")
                tables.append(table)
            }
            for index in 0..<5 {
                try await expectWrite(.post, "/tables/notes", #"{"id":"a\#(index)","text":"secret"}"#, "notes")
                try await expectWrite(.patch, "/tables/notes/a\(index)", #"{"text":"more"}"#, "notes")
            }
            try await expectWrite(.delete, "/tables/notes/a0", nil, "notes")
            try await expectWrite(.post, "/tables/notes/a0", nil, "notes")
            try await expectWrite(.post, "/tables/plans", #"{"id":"p1","title":"red"}"#, "plans")
            try await expectWrite(.patch, "/tables/plans/p1", #"{"title":"red 2"}"#, "plans")
            let batch = """
                {"operations": [
                  {"method": "POST", "table": "notes", "body": {"id": "b1", "text": "x"}},
                  {"method": "PATCH", "table": "notes", "id": "a1", "body": {"text": "y"}},
                  {"method": "DELETE", "table": "notes", "id": "a2"},
                  {"method": "POST", "table": "plans", "body": {"id": "p2", "title": "z"}}
                ]}
                """
            let batched = try await send(.post, "/sync/batch", json: batch, as: "alice")
            try #require(batched.status == 200)
            tables += ["notes", "notes", "notes", "plans"]
            // Rows seeded for alice and her team by the test controls are announced with their owners too.
            try await server.controls.seed(
                table: "notes", items: [["id": "s1", "userId": "alice"], ["id": "s2", "userId": "alice"]])
            try await server.controls.seed(table: "plans", items: [["id": "s3", "teamId": "red"]])
            tables += ["notes", "plans"]
            return tables
        }

        /// A note of `user`'s own and, with a team, a plan of its team's, whose changes end what a test reads
        /// from that user's feeds.
        func writeMarkers(as user: String) async throws {
            let note = try await send(.post, "/tables/notes", json: #"{"id":"marker-\#(user)"}"#, as: user)
            try #require(note.status == 201, "\(note.text)")
            guard user != "dave" else { return }
            let plan = try await send(.post, "/tables/plans", json: #"{"id":"marker-\#(user)"}"#, as: user)
            try #require(plan.status == 201, "\(plan.text)")
        }
    }
}
