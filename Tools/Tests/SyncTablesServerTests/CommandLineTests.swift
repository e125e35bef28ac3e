import Foundation
import Subprocess
import SyncTablesServer
import SystemPackage
import Testing

@Suite("sync-server command")
struct CommandLineTests {
    private var executable: URL { ChildServers.executable }

    @Test(.timeLimit(.minutes(5)))
    func syncServerServesRequestsOnThePortItLogsAndExitsCleanlyOnSIGINT() async throws {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-server first")
        let log = try ServerLogFile()
        defer { log.remove() }

        let result = try await Subprocess.run(
            .path(FilePath(binary.path)), arguments: ["--port", "0", "--in-memory", "--soft-delete"], input: .none,
            output: .fileDescriptor(log.output, closeAfterSpawningProcess: true),
            error: .fileDescriptor(log.errors, closeAfterSpawningProcess: true)
        ) { execution in
            do {
                let port = try await log.waitForPort()
                let harness = try await ServerHarnessClient(port: port)
                let created = try await harness.post("/tables/todo", #"{"id":"a"}"#)
                #expect(created == 201)
                try execution.send(signal: .interrupt)
            } catch {
                try? execution.send(signal: .kill)
                throw error
            }
        }
        #expect(result.terminationStatus == .exited(0))
    }

    @Test(.enabled(if: TestBackend.postgresURL != nil), .timeLimit(.minutes(5)))
    func syncServerDatabaseServesFromPostgreSQLAndRefusesAMalformedURL() async throws {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-server first")
        let malformed = try await Subprocess.run(
            .path(FilePath(binary.path)), arguments: ["--database", "postgres://nouser/db"], output: .discarded,
            error: .string(limit: 4096))
        #expect(!malformed.terminationStatus.isSuccess)
        #expect(malformed.standardError.contains("names no user"), "\(malformed.standardError)")

        let database = try TestBackend.freshPostgresDatabase()
        let url = try #require(TestBackend.postgresURL)
        let log = try ServerLogFile()
        defer { log.remove() }
        let result = try await Subprocess.run(
            .path(FilePath(binary.path)),
            arguments: ["--port", "0", "--database", url, "--database-schema", database.schema, "--pool-size", "2"],
            input: .none,
            output: .fileDescriptor(log.output, closeAfterSpawningProcess: true),
            error: .fileDescriptor(log.errors, closeAfterSpawningProcess: true)
        ) { execution in
            do {
                let port = try await log.waitForPort()
                let harness = try await ServerHarnessClient(port: port)
                #expect(try await harness.post("/tables/todo", #"{"id":"a"}"#) == 201)
                #expect(try await harness.post("/tables/todo", #"{"id":"a"}"#) == 409)
                try execution.send(signal: .interrupt)
            } catch {
                try? execution.send(signal: .kill)
                throw error
            }
        }
        try await TestBackend.dropSchema(of: database)
        #expect(result.terminationStatus == .exited(0))
    }

    @Test func invalidOptionsAreRefusedBeforeTheServerStarts() async throws {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-server first")
        let invalid = [
            ["--page-size", "0"], ["--port", "70000"], ["--log-level", "loud"], ["--max-connections", "0"],
            ["--header-timeout", "0"], ["--body-timeout", "-1"], ["--idle-timeout", "nan"],
            ["--max-table-properties", "0"], ["--pool-size", "0"], ["--database", "postgres://u@h/db"],
            ["--jwt-keys", "keys.json", "--auth-token", "t"], ["--jwt-issuer", "https://idp.example/"],
            ["--jwt-keys", "http://idp.example/jwks.json"], ["--jwt-keys", "/nonexistent/jwks.json"],
            ["--rate-limit", "0"], ["--rate-burst", "5"], ["--no-metrics", "--metrics-token", "t"],
            ["--change-heartbeat", "-1"], ["--change-history", "-1"], ["--max-change-feeds", "0"],
        ]
        for arguments in invalid {
            let result = try await Subprocess.run(
                .path(FilePath(binary.path)), arguments: Arguments(arguments + ["--in-memory"]), output: .discarded,
                error: .discarded)
            #expect(!result.terminationStatus.isSuccess, "\(arguments)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func logRequestsLogsEachRequestWithItsQueryString() async throws {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-server first")
        let log = try ServerLogFile()
        defer { log.remove() }

        // Given a server started with --log-requests
        let result = try await Subprocess.run(
            .path(FilePath(binary.path)), arguments: ["--port", "0", "--in-memory", "--log-requests"], input: .none,
            output: .fileDescriptor(log.output, closeAfterSpawningProcess: true),
            error: .fileDescriptor(log.errors, closeAfterSpawningProcess: true)
        ) { execution in
            do {
                // When a client reads a table with query options
                let port = try await log.waitForPort()
                let status = try await ServerHarnessClient(port: port).get("/tables/todo?$top=1&__includeDeleted=true")
                #expect(status == 200)
                try execution.send(signal: .interrupt)
            } catch {
                try? execution.send(signal: .kill)
                throw error
            }
        }

        // Then the request's log line shows the path with its query string
        #expect(result.terminationStatus == .exited(0))
        let text = try String(contentsOf: log.url, encoding: .utf8)
        #expect(text.contains("GET /tables/todo?$top=1&__includeDeleted=true 200"), "\(text)")
    }

    @Test func syncServerOnAPortInUseSaysSoInOneLineNamingThePortAndExits1() async throws {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-server first")
        // Given a server already listening on a port
        let blocker = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
        try await blocker.start()
        try await blocker.stopping {
            let port = try #require(blocker.port)

            // When sync-server is started on the same port
            let result = try await Subprocess.run(
                .path(FilePath(binary.path)), arguments: ["--port", "\(port)", "--in-memory"], input: .none,
                output: .string(limit: 1 << 20), error: .string(limit: 1 << 20))

            // Then it exits 1 with one line that names the port
            #expect(result.terminationStatus == .exited(1))
            let lines = result.standardError.split(separator: "\n").map(String.init)
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.contains("port \(port) is in use") == true, "\(lines)")
            #expect(result.standardOutput.isEmpty)
        }
    }
}

enum CommandLineTestError: Error {
    case serverDidNotStart
}
