import Crypto
import Foundation
import Testing

/// A large blob streams through `sync-server` (a child process, measured from outside): its peak resident
/// memory grows by far less than the blob's size, uploading or downloading, whether it keeps blobs in a
/// directory or (on the PostgreSQL run) in the database.
@Suite("Blob memory", .serialized)
struct BlobMemoryTests {
    private static let chunk = String(repeating: "0123456789abcdef", count: 65_536)  // 1 MiB
    private static let chunkCount = 64

    private static var blobHash: String {
        var hasher = SHA256()
        let bytes = Array(chunk.utf8)
        for _ in 0..<chunkCount { hasher.update(data: bytes) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    #if os(Linux)
        /// `VmRSS` or `VmHWM` (the peak) of a process, in bytes.
        private static func memory(_ field: String, of pid: pid_t) throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
            let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
            return kilobytes * 1024
        }

        /// On the PostgreSQL run the blob goes into the database (its parts), not to a directory.
        @Test func a64MiBUploadAndDownloadGrowThePeakMemoryOfTheServerByLessThanHalfTheBlob() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("blobs-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = TestBackend.isPostgres ? try TestBackend.freshPostgresDatabase() : nil
            defer { if let database { Task { try? await TestBackend.dropSchema(of: database) } } }
            let arguments =
                if let database, let url = TestBackend.postgresURL {
                    ["--database", url, "--database-schema", database.schema, "--pool-size", "4"]
                } else {
                    ["--blob-directory", directory.path]
                }
            let size = Self.chunk.utf8.count * Self.chunkCount
            let hash = Self.blobHash
            _ = try await ChildServers.with(count: 1, arguments: arguments) { servers in
                let server = servers[0]
                let before = try Self.memory("VmRSS", of: server.pid)

                let upload = try RawConnection(port: server.port)
                try await upload.send(
                    "PUT /sync/blobs/\(hash) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(size)\r\n"
                        + "Connection: close\r\n\r\n")
                for _ in 0..<Self.chunkCount { try await upload.send(Self.chunk, timeout: .seconds(60)) }
                let uploaded = try await upload.waitForClose(timeout: .seconds(60))
                let afterUpload = try Self.memory("VmHWM", of: server.pid)

                let download = try RawConnection(port: server.port)
                try await download.send(
                    "GET /sync/blobs/\(hash) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let downloaded = try await download.waitForClose(timeout: .seconds(60))
                let afterDownload = try Self.memory("VmHWM", of: server.pid)

                guard case .closed(let answer) = uploaded, case .closed(let body) = downloaded else {
                    Issue.record("the server did not answer and close")
                    return
                }
                #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer.prefix(200))")
                #expect(body.hasPrefix("HTTP/1.1 200"))
                #expect(body.utf8.count > size)
                let growth = afterDownload - before
                print(
                    "sync-server peak memory growth over a \(size >> 20) MiB blob: upload \((afterUpload - before) >> 20) MiB, upload and download \(growth >> 20) MiB"
                )
                #expect(growth < size / 2)
            }
        }
    #endif
}
