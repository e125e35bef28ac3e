import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SyncTables

/// Checks a request's credentials as the server's ``Authentication`` says, and names the ``Caller`` they prove.
struct RequestAuthenticator: Sendable {
    private let mode: Mode

    private enum Mode: Sendable {
        case none
        case staticToken(String)
        case jwt(JWTVerifier)
    }

    /// Prepares the check; with JWT verification, reads the keys (and throws when they cannot be read).
    init(_ authentication: Authentication, clock: any SyncClock, logger: Logger) async throws {
        switch authentication {
        case .none: mode = .none
        case .staticToken(let token): mode = .staticToken(token)
        case .jwt(let verification):
            mode = .jwt(try await JWTVerifier(verification: verification, clock: clock, logger: logger))
        }
    }

    /// The caller `request`'s credentials prove, or why they prove none.
    func authenticate(_ request: Request) async throws(AuthenticationFailure) -> Caller {
        switch mode {
        case .none:
            return .development
        case .staticToken(let expected):
            let tokens = Self.tokens(of: request)
            guard !tokens.isEmpty else { throw .missing }
            guard tokens.contains(where: { Self.matches($0, expected) }) else { throw .wrongToken }
            return .development
        case .jwt(let verifier):
            guard let token = Self.tokens(of: request).first else { throw .missing }
            return try await verifier.verify(token)
        }
    }

    /// Whether `token` is `expected`, in a time that depends on their lengths only, so that response times
    /// tell nothing about how much of a guess was right.
    static func matches(_ token: String, _ expected: String) -> Bool {
        let given = Array(token.utf8)
        let wanted = Array(expected.utf8)
        var difference = UInt8(given.count == wanted.count ? 0 : 1)
        for index in wanted.indices {
            difference |= wanted[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    /// The tokens a request carries: of `Authorization: Bearer <token>`, then of `X-ZUMO-AUTH: <token>`.
    static func tokens(of request: Request) -> [String] {
        var tokens: [String] = []
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                tokens.append(String(parts[1]).trimmingCharacters(in: .whitespaces))
            }
        }
        if let zumo = HTTPField.Name("X-ZUMO-AUTH").flatMap({ request.headers[$0] }), !zumo.isEmpty {
            tokens.append(zumo)
        }
        return tokens
    }
}
