import Foundation
import HTTPTypes
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// A harness server that verifies tokens signed with a development key, and one signed-in user whose token
/// every request carries unless the test sends another `Authorization`.
struct SignedInServer: Sendable {
    let harness: ServerHarness
    let token: String
    /// The development key that signs the tokens, for tokens of other users.
    let keyPath: String

    /// Starts the server with `declarations`, runs `body`, and stops the server whatever happens.
    static func with(
        declarations: String, subject: String = "tester", _ body: (SignedInServer) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signed-in-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyPath = folder.appendingPathComponent("dev-key.json").path
        let token = try await DevelopmentKey.loadOrCreate(at: keyPath).token(subject: subject)
        let tables = try TableDeclarations(yaml: declarations)
        try await ServerHarness.with({
            $0.authentication = .jwt(JWTVerification(keys: .file(path: keyPath)))
            $0.declaredTables = tables
        }) { harness in
            try await body(SignedInServer(harness: harness, token: token, keyPath: keyPath))
        }
    }

    /// The test controls.
    var controls: TestControls {
        get throws { try harness.controls }
    }

    /// A token of another user, signed by the same key.
    func token(of subject: String) async throws -> String {
        try await DevelopmentKey.loadOrCreate(at: keyPath).token(subject: subject)
    }

    /// Sends one request with the user's token.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPResult {
        var headers = headers
        if headers["Authorization"] == nil { headers["Authorization"] = "Bearer \(token)" }
        return try await harness.send(method, path, json: json, headers: headers)
    }

    /// Inserts an item and returns the stored item.
    @discardableResult
    func insert(_ table: String, _ json: String) async throws -> JSONObject {
        let response = try await send(.post, "/tables/\(table)", json: json)
        try #require(response.status == 201, "insert failed: \(response.text)")
        return try response.object()
    }
}
