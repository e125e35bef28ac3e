import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Cancelling the task that uploads a blob stops the transfer promptly, even on a slow link.
@Suite("Blob upload cancellation")
struct BlobUploadCancellationTests {
    @Test(arguments: TransportKind.allCases)
    func cancellingTheUploadingTaskStopsTheTransferPromptly(kind: TransportKind) async throws {
        try await BlobServerFixture.with { fixture in
            // 8 Mbit/s: the whole 16 MiB would take about 17 s.
            let proxy = try await fixture.proxy(bitsPerSecond: 8_000_000)
            let client = try fixture.client(kind, url: proxy.url)
            let file = try fixture.randomFile(count: 16 << 20)
            let counter = ByteCounter()
            let upload = Task {
                try await client.uploadBlob(
                    sha256: file.sha256, body: file.body(counting: counter), resumeAt: nil, saveLocation: { _ in })
            }
            let started = ContinuousClock.now
            while counter.value == 0, ContinuousClock.now - started < .seconds(60) {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(counter.value > 0)

            let cancelledAt = ContinuousClock.now
            upload.cancel()
            let outcome = await upload.result

            #expect(ContinuousClock.now - cancelledAt < .seconds(10))
            #expect(throws: CancellationError.self) { try outcome.get() }
            try await proxy.close()
        }
    }
}
