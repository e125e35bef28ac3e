import Foundation
import Testing

@Suite("Methods the server does not serve")
struct UnknownMethodTests {
    private static let nextRequest =
        "GET /tables/todo HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\nConnection: close\r\n\r\n"

    @Test(arguments: [
        "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n",
        "TRACE /tables/todo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "BREW /tables/todo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello",
        "PROPFIND /tables/todo HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\n\r\n",
    ])
    func unknownMethodsGetAFramed405AndTheConnectionServesTheNextRequest(request: String) async throws {
        try await ServerHarness.with { server in
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            try await connection.send(request)
            try await Task.sleep(for: .milliseconds(100))
            try await connection.send(Self.nextRequest)

            guard case .closed(let received) = try await connection.waitForClose(timeout: .seconds(10)) else {
                Issue.record("the server kept the connection open after Connection: close")
                return
            }
            let statuses = received.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["405", "200"], "\(received)")
            #expect(received.contains("Content-Length: "))
            #expect(received.contains(#"{"error":"The method "#))
        }
    }

    @Test func aMethodSplitOverSeveralPacketsIsStillRecognized() async throws {
        try await ServerHarness.with { server in
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            for part in ["CONN", "ECT 127.0.0.1:443 HTTP/1.1\r\nHo", "st: 127.0.0.1\r\n\r\n", Self.nextRequest] {
                try await connection.send(part)
                try await Task.sleep(for: .milliseconds(50))
            }
            guard case .closed(let received) = try await connection.waitForClose(timeout: .seconds(10)) else {
                Issue.record("the connection stayed open")
                return
            }
            let statuses = received.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["405", "200"], "\(received)")
        }
    }
}
