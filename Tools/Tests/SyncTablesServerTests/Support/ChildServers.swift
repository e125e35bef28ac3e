import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Subprocess
import SystemPackage
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sync-server` processes started by a test: real separate servers, each on its own port and with its own log.
enum ChildServers {
    /// The `sync-server` executable next to the test bundle (built by `swift build --build-tests`).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sync-server")
    }

    // Child processes start through swift-subprocess (posix_spawn): Foundation's `Process.run()` crashed at
    // random here, reading past a buffer while it listed the open files.

    /// Starts `count` servers with `arguments` (each on `--port 0`), runs `body` with them once all listen,
    /// then sends SIGTERM to each and waits for it to exit. Returns `body`'s result and how each server ended.
    static func with<Result: Sendable>(
        count: Int,
        arguments: [String],
        _ body: @Sendable ([ChildServer]) async throws -> Result
    ) async throws -> (Result, [TerminationStatus]) {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build sync-server first")
        return try await start(count: count, arguments: arguments, started: [], body)
    }

    private static func start<Result: Sendable>(
        count: Int,
        arguments: [String],
        started: [ChildServer],
        _ body: @Sendable ([ChildServer]) async throws -> Result
    ) async throws -> (Result, [TerminationStatus]) {
        guard started.count < count else { return (try await body(started), []) }
        let log = try ServerLogFile()
        defer { log.remove() }
        let run = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(["--port", "0"] + arguments), input: .none,
            output: .fileDescriptor(log.output, closeAfterSpawningProcess: true),
            error: .fileDescriptor(log.errors, closeAfterSpawningProcess: true)
        ) { execution in
            let pid = execution.processIdentifier.value
            do {
                let server = ChildServer(port: try await log.waitForPort(), pid: pid, log: log.url)
                let inner = try await start(count: count, arguments: arguments, started: started + [server], body)
                try? execution.send(signal: .terminate)
                return inner
            } catch {
                print("sync-server \(pid) log:\n" + ((try? String(contentsOf: log.url, encoding: .utf8)) ?? ""))
                try? execution.send(signal: .init(rawValue: SIGKILL))
                throw error
            }
        }
        let (result, statuses) = run.closureResult
        return (result, [run.terminationStatus] + statuses)
    }
}

/// A child server did not get where a test waited for it to be.
enum ChildServerError: Error {
    case timedOut(String)
}

/// One running `sync-server` child process.
struct ChildServer: Sendable {
    let port: Int
    let pid: pid_t
    /// Its standard output and error.
    let log: URL

    /// Sends `signal` (e.g. `SIGKILL`) to the process, which must still run.
    func send(signal: Int32) {
        kill(pid, signal)
    }

    /// Sends one request on a fresh connection and returns the response (with `ZUMO-API-VERSION` unless
    /// `apiVersion` is `nil`).
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, headers: [String: String] = [:],
        apiVersion: String? = "2.0.0"
    ) async throws -> HTTPResult {
        var fields = HTTPFields()
        if let apiVersion { fields[HTTPField.Name("ZUMO-API-VERSION")!] = apiVersion }
        if json != nil { fields[.contentType] = "application/json" }
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60)))
        client.connect()
        do {
            let response = try await client.execute(
                TestClient.Request(
                    path, method: method, authority: "127.0.0.1:\(port)", headers: fields,
                    body: json.map { ByteBuffer(string: $0) }))
            try? await client.shutdown()
            return HTTPResult(
                status: Int(response.status.code), headers: response.headers,
                body: response.body.map { Array($0.readableBytesView) } ?? [])
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}

/// A temporary file that takes a child server's standard output and error, so a test can read the port it
/// logs (``waitForPort()``) and what it logged.
struct ServerLogFile {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sync-server-\(UUID().uuidString).log")
    let output: SystemPackage.FileDescriptor
    let errors: SystemPackage.FileDescriptor

    init() throws {
        output = try SystemPackage.FileDescriptor.open(
            FilePath(url.path), .writeOnly, options: [.create, .append], permissions: .ownerReadWrite)
        errors = try SystemPackage.FileDescriptor.open(FilePath(url.path), .writeOnly, options: [.append])
    }

    /// Reads the "listening on 127.0.0.1:<port>" line the server logs at startup.
    func waitForPort() async throws -> Int {
        for _ in 0..<200 {
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on 127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return port }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CommandLineTestError.serverDidNotStart
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
