import ArgumentParser
import Foundation
import SyncTablesServer

/// `sync-server dev-token`: prints a JSON Web Token signed with a local development key, which a server
/// started with `--jwt-keys <that key file>` accepts.
struct DevTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-token",
        abstract: "Print a development token signed with a local key (created when absent).",
        discussion: """
            The key file is a JSON Web Key Set holding one Ed25519 private key (mode 0600). Start a server that \
            accepts its tokens with: sync-server --jwt-keys <key file>. For development only.
            Example: sync-server dev-token --sub alice --claim team=blue
            """
    )

    @Option(help: "The token's subject (sub): the user.")
    var sub: String

    @Option(help: "The key file (a JSON Web Key Set with a private key); created when absent.")
    var key = DevelopmentKey.defaultPath

    @Option(name: .customLong("claim"), help: "Another claim, as name=value (repeatable).")
    var claims: [String] = []

    @Option(help: "The token's issuer (iss).")
    var issuer: String?

    @Option(help: "The token's audience (aud).")
    var audience: String?

    @Option(help: "How many seconds the token is valid.")
    var expiresIn = 3600

    func validate() throws {
        guard !sub.isEmpty else { throw ValidationError("--sub must not be empty.") }
        guard expiresIn > 0 else { throw ValidationError("--expires-in must be positive.") }
        _ = try parsedClaims()
    }

    func run() async throws {
        let existed = FileManager.default.fileExists(atPath: key)
        let developmentKey = try DevelopmentKey.loadOrCreate(at: key)
        if !existed {
            FileHandle.standardError.write(
                Data("sync-server: created the development key \(key); serve with --jwt-keys \(key)\n".utf8))
        }
        let token = try await developmentKey.token(
            subject: sub, claims: try parsedClaims(), issuer: issuer, audience: audience,
            expiresIn: .seconds(expiresIn))
        print(token)
    }

    private func parsedClaims() throws -> [String: String] {
        var result: [String: String] = [:]
        for claim in claims {
            guard let equals = claim.firstIndex(of: "="), equals != claim.startIndex else {
                throw ValidationError("--claim must be name=value, not '\(claim)'.")
            }
            result[String(claim[..<equals])] = String(claim[claim.index(after: equals)...])
        }
        return result
    }
}
