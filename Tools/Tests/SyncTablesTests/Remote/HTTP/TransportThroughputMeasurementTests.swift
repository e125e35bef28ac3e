import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Sequential request rate of each transport over loopback, printed for the benchmark notes.
///
/// Runs only when `SYNCTABLES_MEASURE_TRANSPORTS` is set, in release mode:
/// `SYNCTABLES_MEASURE_TRANSPORTS=1 swift test -c release --filter TransportThroughputMeasurement`.
@Suite("Transport throughput measurement", .serialized)
struct TransportThroughputMeasurementTests {
    static let isEnabled = ProcessInfo.processInfo.environment["SYNCTABLES_MEASURE_TRANSPORTS"] != nil

    @Test(
        .enabled(if: isEnabled),
        arguments: TransportKind.allCases
    )
    func sequentialGETRequestsPerSecondOverLoopback(kind: TransportKind) async throws {
        let transport = try kind.make()
        let body = #"[{"id":"a","text":"Buy milk","complete":false,"version":"1"}]"#
        try await ScriptedHTTPServer.with({ _ in .json(200, body) }) { server in
            let request = TransportRequest(method: .get, url: server.baseURL.appendingPathComponent("tables/todo"))
            for _ in 0..<200 { _ = try await transport.send(request) }

            let count = 5_000
            let residentBefore = Self.residentMegabytes()
            let clock = ContinuousClock()
            let elapsed = try await clock.measure {
                for _ in 0..<count {
                    let response = try await transport.send(request)
                    #expect(response.status == 200)
                }
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = Double(count) / seconds
            let residentAfter = Self.residentMegabytes()
            print(
                "TRANSPORT-THROUGHPUT \(kind.rawValue): \(count) sequential requests in \(elapsed), \(Int(rate)) req/s,"
                    + " resident memory \(residentBefore) MB -> \(residentAfter) MB"
            )
            #expect(rate > 0)
        }
    }

    /// The process's resident set size in MB, from `/proc/self/statm` (0 where it does not exist).
    static func residentMegabytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * 4096 / 1_048_576
    }
}
