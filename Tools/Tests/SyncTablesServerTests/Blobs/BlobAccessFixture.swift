import Foundation
import HTTPTypes
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// A server with declared tables that have attachment columns, blobs in a fresh directory (so the PostgreSQL
/// backend serves them too), and four users: alice and carol (team red), bob (team blue), dave (no team).
struct BlobAccessFixture: Sendable {
    static let declarations = """
        tables:
          photos:
            access: owner
            ownerColumn: userId
            softDelete: true
            columns: { caption: string, file: attachment }
          teamFiles:
            access: claim
            claim: team
            claimColumn: teamId
            softDelete: true
            columns: { title: string, file: attachment }
          notices:
            access: read-only
            columns: { title: string, file: attachment }
        """

    let harness: ServerHarness
    let directory: URL
    private let tokens: [User: String]

    enum User: Sendable, Hashable {
        case alice, bob, carol, dave
    }

    /// Starts the server with `declarations` (and `configure`'s changes), runs `body`, and stops the server.
    static func with(
        declarations: String = Self.declarations,
        _ configure: (inout SyncServerConfiguration) -> Void = { _ in },
        _ body: (BlobAccessFixture) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blob-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyPath = folder.appendingPathComponent("dev-key.json").path
        let key = try DevelopmentKey.loadOrCreate(at: keyPath)
        // Valid for days from a minute ago, so a test may move a manual clock on by hours.
        let issued = Date().addingTimeInterval(-60)
        let lifetime = Duration.seconds(3 * 24 * 3600)
        let tokens: [User: String] = [
            .alice: try await key.token(subject: "alice", claims: ["team": "red"], expiresIn: lifetime, now: issued),
            .bob: try await key.token(subject: "bob", claims: ["team": "blue"], expiresIn: lifetime, now: issued),
            .carol: try await key.token(subject: "carol", claims: ["team": "red"], expiresIn: lifetime, now: issued),
            .dave: try await key.token(subject: "dave", expiresIn: lifetime, now: issued),
        ]
        let tables = try TableDeclarations(yaml: declarations)
        let directory = folder.appendingPathComponent("blobs")
        try await ServerHarness.with({
            $0.authentication = .jwt(JWTVerification(keys: .file(path: keyPath)))
            $0.declaredTables = tables
            $0.blobDirectory = directory.path
            configure(&$0)
        }) { harness in
            try await body(BlobAccessFixture(harness: harness, directory: directory, tokens: tokens))
        }
    }

    /// Sends a JSON request as `user`.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, as user: User,
        headers: [String: String] = [:]
    ) async throws -> HTTPResult {
        try await harness.send(method, path, json: json, headers: authorized(headers, user))
    }

    /// Sends raw bytes as `user`.
    func send(
        _ method: HTTPRequest.Method, _ path: String, body: [UInt8]?, as user: User, headers: [String: String] = [:]
    ) async throws -> HTTPResult {
        try await harness.send(method, path, body: body, headers: authorized(headers, user))
    }

    /// Uploads `bytes` as `user` with a plain PUT and requires success.
    func upload(_ bytes: [UInt8], as user: User) async throws {
        let response = try await send(.put, BlobServer.path(of: bytes), body: bytes, as: user)
        try #require([200, 201].contains(response.status), "upload failed: \(response.status) \(response.text)")
    }

    /// The attachment value naming `bytes`' blob.
    static func attachment(_ bytes: [UInt8]) -> String {
        #"{"sha256":"\#(BlobServer.hash(of: bytes))","size":\#(bytes.count),"name":"file.bin"}"#
    }

    /// Whether a blob's file is in the blob directory.
    func isStored(_ bytes: [UInt8]) throws -> Bool {
        try BlobServer.files(in: directory).contains { $0.hasSuffix("/" + BlobServer.hash(of: bytes)) }
    }

    /// Distinct bytes for each `seed`.
    static func bytes(_ seed: String, count: Int = 2000) -> [UInt8] {
        Array(String(repeating: "\(seed) ", count: count / (seed.utf8.count + 1) + 1).utf8.prefix(count))
    }

    private func authorized(_ headers: [String: String], _ user: User) -> [String: String] {
        var headers = headers
        headers["Authorization"] = "Bearer \(tokens[user] ?? "")"
        return headers
    }
}
