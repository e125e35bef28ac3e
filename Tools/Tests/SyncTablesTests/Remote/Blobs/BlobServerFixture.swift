import Crypto
import Foundation
import SlowLink
@_spi(SyncTablesTools) import SyncTablesCore
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A real `sync-server` (in memory, blobs on) on an ephemeral 127.0.0.1 port, for the blob client tests.
struct BlobServerFixture: Sendable {
    let server: SyncServer
    let url: URL
    let directory: TemporaryDirectory

    /// Starts a server whose blobs may have at most `maxBlobBytes` bytes, runs `body`, and stops it.
    static func with(
        maxBlobBytes: Int64 = 1 << 30, _ body: (BlobServerFixture) async throws -> Void
    ) async throws {
        var configuration = SyncServerConfiguration(storage: .inMemory).withTestControls()
        configuration.maxBlobBytes = maxBlobBytes
        let server = try await SyncServer(configuration: configuration)
        try await server.start()
        let fixture = BlobServerFixture(
            server: server, url: try #require(server.url), directory: try TemporaryDirectory())
        try await server.stopping { try await body(fixture) }
    }

    /// A client of this server (or of `url`, a proxy in front of it) over `kind`.
    func client(_ kind: TransportKind, url: URL? = nil) throws -> SyncClient {
        SyncClient(url: url ?? self.url, transport: try kind.make(), timeout: .seconds(30))
    }

    /// A slow link in front of the server.
    func proxy(bitsPerSecond: Int) async throws -> SlowLinkProxy {
        try await SlowLinkProxy(
            upstreamPort: try #require(server.port),
            link: SlowLinkConfiguration(oneWayDelay: .milliseconds(5), bitsPerSecond: bitsPerSecond))
    }

    /// A file of `count` random bytes in the fixture's directory.
    ///
    /// The bytes come from `/dev/urandom` in one read: generating 16 MiB a word at a time in a debug build
    /// holds a thread of the shared task pool for seconds, which delays every other test's sleeping tasks.
    func randomFile(count: Int) throws -> BlobFile {
        let source = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        defer { try? source.close() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let chunk = try source.read(upToCount: count - bytes.count) ?? Data()
            bytes.append(contentsOf: chunk)
        }
        let url = directory.url.appendingPathComponent("blob-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return BlobFile(url: url, bytes: bytes)
    }
}

/// A file of test bytes and their name.
struct BlobFile: Sendable {
    let url: URL
    let bytes: [UInt8]

    var size: Int64 { Int64(bytes.count) }
    var sha256: String { BlobFile.sha256(bytes) }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The file as an upload body that counts the bytes its readers deliver into `counter`, and, with
    /// `failingAt`, throws ``InjectedReaderFault`` once a reader reaches that offset of the file.
    func body(counting counter: ByteCounter = ByteCounter(), failingAt failure: Int64? = nil) -> UploadBody {
        let file = UploadBody.file(url, range: 0..<size)
        return UploadBody(length: size) { offset in
            CountingReader(
                inner: try file.tail(from: offset).makeReader(), position: offset, counter: counter, failure: failure)
        }
    }
}

/// How many body bytes readers delivered.
final class ByteCounter: Sendable {
    private let count = LockedState<Int64>(0)

    var value: Int64 { count.withLock { $0 } }

    func add(_ bytes: Int) { count.withLock { $0 += Int64(bytes) } }
}

/// The fault a test's reader throws on purpose.
struct InjectedReaderFault: Error, Equatable {}

/// A reader that counts what it delivers and can fail at an offset.
private final class CountingReader: UploadBodyReader {
    let inner: any UploadBodyReader
    var position: Int64
    let counter: ByteCounter
    let failure: Int64?

    init(inner: any UploadBodyReader, position: Int64, counter: ByteCounter, failure: Int64?) {
        self.inner = inner
        self.position = position
        self.counter = counter
        self.failure = failure
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let failure, position >= failure { throw InjectedReaderFault() }
        var window = buffer
        if let failure {
            window = UnsafeMutableRawBufferPointer(
                rebasing: buffer[0..<Int(min(Int64(buffer.count), failure - position))])
        }
        let count = try inner.read(into: window)
        position += Int64(count)
        counter.add(count)
        return count
    }
}

/// Collects saved upload locations.
final class SavedLocations: Sendable {
    private let locations = LockedState<[String]>([])

    var all: [String] { locations.withLock { $0 } }

    func save(_ location: String) { locations.withLock { $0.append(location) } }
}

extension SyncClient {
    /// The whole blob, downloaded from `offset`.
    func downloadedBytes(sha256: String, from offset: Int64 = 0) async throws -> (BlobDownload, [UInt8]) {
        let download = try await downloadBlob(sha256: sha256, from: offset)
        var bytes: [UInt8] = []
        for try await chunk in download.body { bytes.append(contentsOf: chunk) }
        return (download, bytes)
    }
}
