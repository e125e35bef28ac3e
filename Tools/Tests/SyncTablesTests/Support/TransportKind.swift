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

    var testDescription: String { rawValue }
}
