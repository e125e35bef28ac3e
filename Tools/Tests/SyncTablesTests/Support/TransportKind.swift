import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The transports every transport-level behaviour is checked against.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case curl
    case urlSession

    func make() throws -> any HTTPTransport {
        switch self {
        case .curl:
            #if os(Linux)
                return try CurlTransport()
            #else
                return URLSessionTransport()
            #endif
        case .urlSession:
            return URLSessionTransport()
        }
    }

    /// The transport, for the tests that stream response bodies.
    func makeStreaming() throws -> any StreamingHTTPTransport {
        switch self {
        case .curl:
            #if os(Linux)
                return try CurlTransport()
            #else
                return URLSessionTransport()
            #endif
        case .urlSession:
            return URLSessionTransport()
        }
    }

    /// Whether a reader that falls behind pauses the transfer; FoundationNetworking (Linux) cannot pause a data
    /// task, so there URLSessionTransport fails the stream instead.
    var pausesSlowReaders: Bool {
        #if canImport(FoundationNetworking)
            return self == .curl
        #else
            return true
        #endif
    }

    var testDescription: String { rawValue }
}
