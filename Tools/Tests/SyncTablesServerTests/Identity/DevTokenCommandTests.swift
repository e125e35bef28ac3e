import Foundation
import Subprocess
import SystemPackage
import Testing

@Suite("sync-server dev-token")
struct DevTokenCommandTests {
    private var executable: URL { ChildServers.executable }

    private func devToken(_ arguments: [String]) async throws -> (token: String, errors: String) {
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(["dev-token"] + arguments), input: .none,
            output: .string(limit: 1 << 16), error: .string(limit: 1 << 16))
        try #require(result.terminationStatus == .exited(0), "\(result.standardError)")
        return (result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), result.standardError)
    }

    @Test(.timeLimit(.minutes(5)))
    func aDevTokenIsAcceptedByAServerVerifyingWithItsKeyFile() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build sync-server first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dev-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("dev-key.json").path

        // Given a token from a new development key (the file is created, readable by its owner only)
        let (token, errors) = try await devToken([
            "--sub", "alice", "--key", key, "--claim", "team=blue", "--issuer", "dev", "--audience", "sync",
        ])
        #expect(errors.contains("created the development key"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        #expect(token.split(separator: ".").count == 3)

        // and another one from the same key
        let (second, _) = try await devToken(["--sub", "bob", "--key", key, "--expires-in", "60"])

        // When a server verifies tokens with that key file
        let arguments = ["--in-memory", "--jwt-keys", key, "--jwt-issuer", "dev", "--jwt-audience", "sync"]
        _ = try await ChildServers.with(count: 1, arguments: arguments) { servers in
            let server = servers[0]
            // Then the first token is accepted, the second (no issuer or audience) and none at all are not
            let accepted = try await server.send(.get, "/tables/todo", headers: ["Authorization": "Bearer \(token)"])
            #expect(accepted.status == 200, "\(accepted.text)")
            let wrongIssuer = try await server.send(
                .get, "/tables/todo", headers: ["Authorization": "Bearer \(second)"])
            #expect(wrongIssuer.status == 401)
            #expect(try await server.send(.get, "/tables/todo").status == 401)
        }
    }

    @Test func aMalformedClaimIsRefused() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build sync-server first")
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)),
            arguments: ["dev-token", "--sub", "alice", "--key", "/nonexistent/key.json", "--claim", "novalue"],
            output: .discarded, error: .string(limit: 4096))
        #expect(!result.terminationStatus.isSuccess)
        #expect((result.standardError).contains("name=value"))
    }
}
