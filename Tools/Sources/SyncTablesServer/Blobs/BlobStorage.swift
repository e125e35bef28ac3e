import Foundation
import Hummingbird
import NIOCore

/// Where the server keeps blobs: a directory (``DirectoryBlobStorage``) for one instance; a store several
/// instances share can implement the same requirements.
///
/// An implementation verifies what it stores: ``store(_:from:limit:)`` hashes the bytes as they arrive and
/// keeps nothing when they do not hash to the name they were sent under. A stored blob appears at once and
/// whole, never partly written.
protocol BlobStorage: Sendable {
    /// The size in bytes of a stored blob; `nil` when none is stored under that hash.
    func size(of blob: BlobHash) async throws -> Int64?

    /// Stores the bytes of `body` under `blob`, streaming them (never whole in memory).
    ///
    /// - Throws: ``BlobStorageError/tooLarge(limit:)`` past `limit` bytes and
    ///   ``BlobStorageError/hashMismatch(expected:received:)`` when the bytes hash to another name; nothing is
    ///   kept in either case.
    func store(_ blob: BlobHash, from body: RequestBody, limit: Int64) async throws -> BlobStoreOutcome

    /// The bytes of `range` of a stored blob, as a body that streams them; `nil` when none is stored.
    func contents(of blob: BlobHash, range: ClosedRange<Int64>) async throws -> ResponseBody?

    /// Removes a stored blob; nothing happens when none is stored.
    func remove(_ blob: BlobHash) async throws

    /// Starts a resumable upload of `blob` for `owner` (a subject; `nil` in development mode) and returns its token.
    func createUpload(of blob: BlobHash, owner: String?, createdAt: Date) async throws -> String

    /// The unfinished upload a token names; `nil` when there is none (never created, finished, cancelled or
    /// expired).
    func upload(_ token: String) async throws -> BlobUpload?

    /// Appends the bytes of `body` to an upload whose bytes so far number `offset`, and returns the new offset.
    ///
    /// The bytes that arrived before `body` failed (the connection dropped) stay, so the upload resumes from
    /// them. - Throws: ``BlobStorageError/offsetMismatch(current:)`` when `offset` is not the upload's,
    /// ``BlobStorageError/tooLarge(limit:)`` when the upload would pass `limit` bytes.
    func append(to token: String, at offset: Int64, from body: RequestBody, limit: Int64) async throws -> Int64

    /// Verifies an upload's bytes against its blob's hash and stores them as the blob; the upload is gone
    /// afterwards either way. - Throws: ``BlobStorageError/hashMismatch(expected:received:)``.
    func completeUpload(_ token: String) async throws -> BlobStoreOutcome

    /// Removes an unfinished upload and its bytes.
    func cancelUpload(_ token: String) async throws

    /// Removes up to `limit` unfinished uploads created before `cutoff`; returns how many it removed.
    func removeUploads(createdBefore cutoff: Date, limit: Int) async throws -> Int

    /// Releases what the storage holds open (and, for a temporary directory, removes it).
    func close() async throws
}

/// What storing a blob did.
enum BlobStoreOutcome: Sendable, Equatable {
    /// The blob is new.
    case created
    /// The same bytes were already stored; nothing changed.
    case existed
}

/// An unfinished resumable upload: which blob it becomes, whose it is, and how many bytes it has.
struct BlobUpload: Sendable, Equatable {
    /// The blob the bytes must hash to.
    let blob: BlobHash
    /// The subject that created the upload; only it may resume it (`nil`: any caller, in development mode).
    let owner: String?
    /// When it was created (it expires a retention period later).
    let createdAt: Date
    /// How many bytes it has.
    let offset: Int64
}

/// Why a blob was not stored.
enum BlobStorageError: Error, Equatable {
    /// The body was longer than the limit.
    case tooLarge(limit: Int64)
    /// The bytes hash to `received`, not to the name they were sent under.
    case hashMismatch(expected: BlobHash, received: BlobHash)
    /// An append named another offset than the upload's.
    case offsetMismatch(current: Int64)
    /// An append or completion named an upload that is not (or no longer) there.
    case noSuchUpload
    /// Another request is appending to the same upload.
    case uploadBusy
    /// The request body ended before its end (the client went away); what arrived of an upload is kept.
    case bodyInterrupted
}

extension RequestBody {
    /// The body's buffers, in order, each given to `receive`; a failure reading the body (not one of `receive`'s)
    /// is ``BlobStorageError/bodyInterrupted``.
    func forEachBuffer(_ receive: (ByteBuffer) async throws -> Void) async throws {
        var iterator = makeAsyncIterator()
        while true {
            let next: ByteBuffer?
            do {
                next = try await iterator.next()
            } catch {
                throw BlobStorageError.bodyInterrupted
            }
            guard let buffer = next else { return }
            try await receive(buffer)
        }
    }
}
