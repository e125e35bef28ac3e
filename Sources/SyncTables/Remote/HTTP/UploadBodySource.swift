import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// One transfer's view of an ``UploadBody``: its open reader, how much is left, the progress callback, and
/// the reader's failure, which the transport rethrows instead of its own error.
///
/// `@unchecked Sendable`: the transport calls ``read(into:)`` from one thread at a time (libcurl's loop thread,
/// or URLSession's stream reader); only `failure` is read from elsewhere, behind its lock.
final class UploadBodySource: @unchecked Sendable {
    /// The largest chunk handed to the network at once, to keep memory bounded whatever the caller's buffer.
    static let largestChunk = 1 << 20

    let length: Int64
    private let reader: any UploadBodyReader
    private let progress: (@Sendable (Int64) -> Void)?
    private var sent: Int64 = 0
    private let recordedFailure = LockedState<(any Error)?>(nil)

    /// Opens the body's reader.
    init(_ body: UploadBody, progress: (@Sendable (Int64) -> Void)?) throws {
        length = body.length
        reader = try body.makeReader()
        self.progress = progress
    }

    /// What the reader threw, or its early end, once the transfer was aborted because of it.
    var failure: (any Error)? { recordedFailure.withLock { $0 } }

    /// Fills `buffer` with the next bytes; returns 0 at the end of the body, `nil` after recording a failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let wanted = Int(min(Int64(min(buffer.count, Self.largestChunk)), length - sent))
        guard wanted > 0 else { return 0 }
        do {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            guard count > 0 else {
                throw TransportError(
                    .invalidRequest, message: "The upload body ended after \(sent) of its \(length) bytes.")
            }
            sent += Int64(count)
            progress?(sent)
            return count
        } catch {
            recordedFailure.withLock { $0 = error }
            return nil
        }
    }
}
