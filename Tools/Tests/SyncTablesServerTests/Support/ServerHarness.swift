import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// A running server on an ephemeral 127.0.0.1 port, with a real HTTP client.
struct ServerHarness: Sendable {
    let server: SyncServer
    let port: Int

    /// The test controls (the harness enables them unless told otherwise).
    var controls: TestControls {
        get throws { try #require(server.testControls) }
    }

    /// Starts a server with test controls on (on the backend ``TestBackend`` selects), runs `body`, and stops
    /// the server whatever happens.
    static func with(
        _ configure: (inout SyncServerConfiguration) -> Void = { _ in },
        _ body: (ServerHarness) async throws -> Void
    ) async throws {
        var configuration = SyncServerConfiguration(storage: .inMemory).withTestControls()
        let database = TestBackend.isPostgres ? try TestBackend.freshPostgresDatabase() : nil
        if let database { configuration.storage = .postgres(database) }
        configure(&configuration)
        do {
            let server = try await SyncServer(configuration: configuration)
            try await server.start()
            let harness = ServerHarness(server: server, port: try #require(server.port))
            try await server.stopping { try await body(harness) }
        } catch {
            if let database { try? await TestBackend.dropSchema(of: database) }
            throw error
        }
        if let database { try await TestBackend.dropSchema(of: database) }
    }

    /// Sends one request on a fresh connection. `apiVersion` nil leaves the `ZUMO-API-VERSION` header out;
    /// the request fails with the client's `readTimeout` after `timeout`.
    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        json: String? = nil,
        headers: [String: String] = [:],
        apiVersion: String? = "2.0.0",
        timeout: Duration = .seconds(60)
    ) async throws -> HTTPResult {
        try await send(
            method, path, body: json.map { Array($0.utf8) }, headers: headers, apiVersion: apiVersion, timeout: timeout)
    }

    /// Sends raw body bytes.
    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        body: [UInt8]?,
        headers: [String: String] = [:],
        apiVersion: String? = "2.0.0",
        timeout: Duration = .seconds(60)
    ) async throws -> HTTPResult {
        var fields = HTTPFields()
        if let apiVersion { fields[HTTPField.Name("ZUMO-API-VERSION")!] = apiVersion }
        if body != nil { fields[.contentType] = "application/json" }
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: timeout))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        let request = TestClient.Request(
            path,
            method: method,
            authority: "127.0.0.1:\(port)",
            headers: fields,
            body: body.map { ByteBuffer(bytes: $0) }
        )
        let response = try await client.execute(request)
        try? await client.shutdown()
        return HTTPResult(
            status: Int(response.status.code),
            headers: response.headers,
            body: response.body.map { Array($0.readableBytesView) } ?? []
        )
    }

    /// Runs `body` with one keep-alive connection that sends requests one after another.
    func withConnection(_ body: (Connection) async throws -> Void) async throws {
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60)))
        client.connect()
        do {
            try await body(Connection(client: client, port: port))
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// One persistent HTTP/1.1 connection.
    struct Connection: Sendable {
        let client: TestClient
        let port: Int

        /// Sends a request with the protocol version header on this connection.
        func send(_ method: HTTPRequest.Method, _ path: String, json: String? = nil) async throws -> HTTPResult {
            var fields: HTTPFields = [HTTPField.Name("ZUMO-API-VERSION")!: "2.0.0", .connection: "keep-alive"]
            if json != nil { fields[.contentType] = "application/json" }
            let request = TestClient.Request(
                path,
                method: method,
                authority: "127.0.0.1:\(port)",
                headers: fields,
                body: json.map { ByteBuffer(string: $0) }
            )
            let response = try await client.execute(request)
            return HTTPResult(
                status: Int(response.status.code),
                headers: response.headers,
                body: response.body.map { Array($0.readableBytesView) } ?? []
            )
        }
    }

    /// Inserts an item and returns the stored item.
    @discardableResult
    func insert(_ table: String, _ json: String) async throws -> JSONObject {
        let response = try await send(.post, "/tables/\(table)", json: json)
        try #require(response.status == 201, "insert failed: \(response.text)")
        return try response.object()
    }
}

/// A response as a test sees it.
struct HTTPResult: Sendable {
    let status: Int
    let headers: HTTPFields
    let body: [UInt8]

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// A header by name.
    func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }

    /// The body as JSON.
    func json() throws -> JSONValue {
        try WireJSON.parse(body)
    }

    /// The body as one object.
    func object() throws -> JSONObject {
        guard case .object(let object) = try json() else { throw HarnessError.notAnObject(text) }
        return object
    }

    /// The body as an array of objects.
    func objects() throws -> [JSONObject] {
        guard case .array(let values) = try json() else { throw HarnessError.notAnArray(text) }
        return values.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    /// The ids of an array body, in order.
    func ids() throws -> [String] {
        try objects().map { $0.string("id") ?? "?" }
    }

    /// The `error` message of an error body.
    func errorMessage() throws -> String? {
        try object().string("error")
    }
}

enum HarnessError: Error {
    case notAnObject(String)
    case notAnArray(String)
}

extension JSONObject {
    /// A string property, or `nil`.
    func string(_ name: String) -> String? {
        if case .string(let value)? = self[name] { return value }
        return nil
    }
}

/// A client for a server started outside the test process (the `sync-server` executable).
struct ServerHarnessClient {
    let port: Int

    init(port: Int) async throws {
        self.port = port
    }

    /// POSTs JSON with the protocol version header and returns the status.
    func post(_ path: String, _ json: String) async throws -> Int {
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        let request = TestClient.Request(
            path,
            method: .post,
            authority: "127.0.0.1:\(port)",
            headers: [HTTPField.Name("ZUMO-API-VERSION")!: "2.0.0", .contentType: "application/json"],
            body: ByteBuffer(string: json)
        )
        return Int(try await client.execute(request).status.code)
    }

    /// GETs a path (with its query string) with the protocol version header and returns the status.
    func get(_ pathAndQuery: String) async throws -> Int {
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        let request = TestClient.Request(
            pathAndQuery,
            method: .get,
            authority: "127.0.0.1:\(port)",
            headers: [HTTPField.Name("ZUMO-API-VERSION")!: "2.0.0"]
        )
        return Int(try await client.execute(request).status.code)
    }
}
