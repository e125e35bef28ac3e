import Foundation
import Testing

@Suite("sync-server command")
struct CommandLineTests {
    /// The `sync-server` executable next to the test bundle (built by `swift build --build-tests`).
    private var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sync-server")
    }

    @Test("sync-server serves requests on the port it logs and exits cleanly on SIGINT")
    func servesAndShutsDownOnSIGINT() async throws {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-server first")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("sync-server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)

        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--in-memory", "--soft-delete"]
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let port = try await Self.waitForPort(in: log)
        let harness = try await ServerHarnessClient(port: port)
        let created = try await harness.post("/tables/todo", #"{"id":"a"}"#)
        #expect(created == 201)

        kill(process.processIdentifier, SIGINT)
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test("Invalid options are refused before the server starts")
    func invalidOptionsAreRefused() throws {
        let binary = executable
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build sync-server first")
        for arguments in [["--page-size", "0"], ["--port", "70000"], ["--log-level", "loud"]] {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments + ["--in-memory"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus != 0, "\(arguments)")
        }
    }

    /// Reads the "listening on 127.0.0.1:<port>" line the server logs at startup.
    private static func waitForPort(in log: URL) async throws -> Int {
        for _ in 0..<200 {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on 127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return port }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CommandLineTestError.serverDidNotStart
    }
}

enum CommandLineTestError: Error {
    case serverDidNotStart
}
