import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("synctables push")
struct PushCommandTests {
    @Test func pushJsonSendsTheQueueInABatchReportsTheCountAndExits0() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "t1", "text": "a"])
                _ = try await context.table(JSONObject.self, named: "note").insert(["id": "n1", "text": "b"])
            }

            let run = try await harness.run(["push", "--json"], store: path, server: true)

            #expect(run.status == 0)
            #expect(run.stderr.isEmpty, "no progress line when stderr is not a terminal: \(run.stderr)")
            let json = try run.json
            #expect(json["status"] == "succeeded" && json["pushedOperations"] == 2 && json["failedOperations"] == 0)
            let requests = try await harness.controls.requests().filter { $0.method == "POST" }
            // sync-server offers batches: the two inserts went in one, each logged as its own request too.
            #expect(requests.map(\.path).sorted() == ["/sync/batch", "/tables/note", "/tables/todo"])
            #expect(try await rows("todo", in: path).first?["version"] != nil)
        }
    }

    @Test func pushExits2WhenItCompletesWithAConflictAndListsTheFailedOperation() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.makeConflict(in: path)

            let run = try await harness.run(["push", "--json"], store: path, server: true)

            #expect(run.status == 2)
            #expect(run.stderrLines.count == 1 && run.stderr.contains("failed operation"))
            let json = try run.json
            #expect(json["status"] == "completedWithErrors" && json["failedOperations"] == 1)
            #expect(json["errors"]?.arrayValue?.first?.objectValue?["status"] == 412)
        }
    }

    @Test func pushExits3WhenTheServerCannotBeReachedKeepingEveryOperation() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "t1"])
            }
            let closedPort = try await Self.closedPortURL()

            let run = try await SynctablesExecutable.run(["push", "--store", path, "--server", closedPort])

            #expect(run.status == 3)
            #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("synctables: error: "))
            #expect(try await harness.run(["queue", "--json"], store: path).json["operations"]?.arrayValue?.count == 1)
        }
    }

    @Test func pushExits4WhenTheTokenIsRefusedAndSucceedsWithTheRightOne() async throws {
        try await CLIHarness.with(authToken: "s3cret") { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { context in
                _ = try await context.table(JSONObject.self, named: "todo").insert(["id": "t1"])
            }

            let wrong = try await harness.run(["push", "--auth-token", "wrong"], store: path, server: true)
            let right = try await harness.run(
                ["push", "--json"], store: path, server: true, environment: ["SYNCTABLES_AUTH_TOKEN": "s3cret"])

            #expect(wrong.status == 4)
            #expect(wrong.stderrLines.count == 1 && wrong.stderr.contains("401"))
            #expect(right.status == 0, "\(right.stderr)")
            #expect(try right.json["pushedOperations"] == 1)
        }
    }

    @Test func pushWithoutAServerOrWithANonHTTPURLIsBadUsage() async throws {
        try await CLIHarness.with { harness in
            let path = harness.newStorePath()
            try await harness.withContext(path) { _ in }

            let missing = try await harness.run(["push"], store: path)
            let invalid = try await harness.run(["push", "--server", "ftp://example.com"], store: path)
            let fromEnvironment = try await harness.run(
                ["push", "--json"], store: path, environment: ["SYNCTABLES_SERVER": harness.url.absoluteString])

            #expect(missing.status == 64 && missing.stderr.contains("--server"))
            #expect(invalid.status == 64 && invalid.stderrLines.count == 1)
            #expect(fromEnvironment.status == 0)
        }
    }

    /// A URL on 127.0.0.1 whose port nothing listens on: bound, then released.
    static func closedPortURL() async throws -> String {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }
}
