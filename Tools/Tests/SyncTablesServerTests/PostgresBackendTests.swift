import Foundation
import Logging
import PostgresNIO
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// What only the PostgreSQL backend has: URL parsing, loud failure when the database is unreachable, and
/// several server instances sharing one database. (The whole server suite also runs on PostgreSQL: see
/// ``TestBackend``.)
@Suite("PostgreSQL backend")
struct PostgresBackendTests {
    @Test func aPostgresURLGivesHostPortUserPasswordDatabaseAndTLSMode() throws {
        let database = try PostgresStorage(url: "postgres://sync%40app:p%3Ass@db.example.com:6543/app?sslmode=require")
        #expect(database.host == "db.example.com")
        #expect(database.port == 6543)
        #expect(database.username == "sync@app")
        #expect(database.password == "p:ss")
        #expect(database.database == "app")
        #expect(database.tls == .require)
        let defaults = try PostgresStorage(url: "postgresql://sync@localhost")
        #expect(defaults.port == 5432 && defaults.database == nil && defaults.tls == .disable)
    }

    @Test(arguments: [
        "mysql://u@h/db", "postgres://h/db", "postgres://u@/db", "postgres://u@h/db?sslmode=maybe",
        "postgres://u@h/db?pool=3",
    ])
    func malformedPostgreSQLURLsAreRefusedWithTheReason(_ url: String) {
        #expect(throws: PostgresURLError.self) { try PostgresStorage(url: url) }
    }

    @Test func aServerOnAnUnreachableDatabaseFailsToStartWithAClearError() async throws {
        // Nothing listens on port 1: the connection is refused at once.
        let database = PostgresStorage(host: "127.0.0.1", port: 1, username: "nobody")
        await #expect(throws: PostgresStorageError.self) {
            _ = try await SyncServer(configuration: SyncServerConfiguration(storage: .postgres(database)))
        }
    }

    @Test(.enabled(if: TestBackend.postgresURL != nil))
    func sslmodeRequireWithoutTLSOnTheServerFailsAtStartSayingWhy() async throws {
        var database = try TestBackend.freshPostgresDatabase()
        database.tls = .require
        do {
            let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .postgres(database)))
            try await server.stop()
            Issue.record("the server started although the database offers no TLS")
        } catch let error as PostgresStorageError {
            #expect(error.description.contains("does not offer TLS"), "\(error)")
        }
    }

    @Test(.enabled(if: TestBackend.postgresURL != nil))
    func twoInstancesOnOneDatabaseShareTablesVersionsAndIfMatchConflicts() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        defer { Task { try? await TestBackend.dropSchema(of: database) } }
        try await ServerHarness.with({ $0.storage = .postgres(database) }) { first in
            try await ServerHarness.with({ $0.storage = .postgres(database) }) { second in
                let created = try await first.insert("todo", #"{"id":"a","text":"one"}"#)
                let seen = try await second.send(.get, "/tables/todo/a")
                #expect(seen.status == 200)
                let version = try #require(created.string("version"))
                let updated = try await second.send(
                    .patch, "/tables/todo/a", json: #"{"text":"two"}"#, headers: ["If-Match": "\"\(version)\""])
                #expect(updated.status == 200)
                let stale = try await first.send(
                    .patch, "/tables/todo/a", json: #"{"text":"three"}"#, headers: ["If-Match": "\"\(version)\""])
                #expect(stale.status == 412)
                #expect(try stale.object().string("text") == "two")
                let duplicate = try await second.send(.post, "/tables/todo", json: #"{"id":"a"}"#)
                #expect(duplicate.status == 409)

                // Writes through both instances get distinct versions and strictly increasing updatedAt.
                for index in 0..<20 {
                    let server = index.isMultiple(of: 2) ? first : second
                    try await server.insert("todo", #"{"id":"r\#(index)"}"#)
                }
                let rows = try await first.send(.get, "/tables/todo?$orderby=updatedAt&$top=100").objects()
                #expect(rows.count == 21)
                #expect(Set(rows.compactMap { $0.string("version") }).count == 21)
                let stamps = rows.compactMap { $0.string("updatedAt") }
                #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
            }
        }
    }

    @Test(.enabled(if: TestBackend.postgresURL != nil))
    func aNewInstanceCountsATablesPropertiesFromTheDatabaseDeletedRowsIncluded() async throws {
        let database = try TestBackend.freshPostgresDatabase()
        defer { Task { try? await TestBackend.dropSchema(of: database) } }
        let configure: (inout SyncServerConfiguration) -> Void = {
            $0.storage = .postgres(database)
            $0.maxTableProperties = 20
        }
        func item(_ id: String, _ prefix: String, _ range: Range<Int>) -> String {
            #"{"id":"\#(id)","# + range.map { #""\#(prefix)\#($0)":1"# }.joined(separator: ",") + "}"
        }
        // id and the four system properties count too: 15 of our own reach the limit of 20.
        try await ServerHarness.with(configure) { server in
            try await server.insert("todo", item("a", "p", 0..<10))
            try await server.insert("todo", item("b", "p", 10..<15))
            #expect(try await server.send(.delete, "/tables/todo/b").status == 200)
        }
        try await ServerHarness.with(configure) { server in
            let refused = try await server.send(.post, "/tables/todo", json: item("c", "q", 0..<1))
            #expect(refused.status == 400, "\(refused.text)")
        }
        // An older server recorded no names: the next instance reads them from the rows, where b's are gone.
        try await TestBackend.withSession(database) { session in
            let counters = "\"\(database.schema)\".\"__synctables_tables\""
            try await session.query(
                PostgresQuery(unsafeSQL: "UPDATE \(counters) SET properties = NULL"), logger: Logger(label: "test"))
        }
        try await ServerHarness.with(configure) { server in
            let fits = try await server.send(.post, "/tables/todo", json: item("c", "q", 0..<5))
            #expect(fits.status == 201, "\(fits.text)")
            let tooMany = try await server.send(.post, "/tables/todo", json: item("d", "r", 0..<1))
            #expect(tooMany.status == 400, "\(tooMany.text)")
        }
    }
}
