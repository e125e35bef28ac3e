import Foundation

/// The blob bookkeeping a table storage keeps beside its rows: who uploaded which blob when, and (in each row
/// write's own transaction, see ``BlobReferencing``) which live rows reference which blobs.
protocol BlobReferenceStorage: Sendable {
    /// Records that `uploader` (a token's subject) stored or re-sent the bytes of `blob` at `time`.
    func recordUpload(of blob: BlobHash, by uploader: String, at time: Date) async throws

    /// Whether `uploader` uploaded `blob`, or a live row that `scopes` lets the caller read references it.
    func mayRead(_ blob: BlobHash, uploader: String, scopes: [BlobReadScope]) async throws -> Bool

    /// Forgets up to `limit` blobs that no live row references and whose last upload was before `cutoff`, and
    /// returns them, for the caller to remove from blob storage.
    func forgetUnreferencedBlobs(uploadedBefore cutoff: Date, limit: Int) async throws -> [BlobHash]
}

/// The rows of one table a caller may read, as the reference index sees them: every row (`scope` `nil`), or
/// those whose owner or claim column holds `scope`.
struct BlobReadScope: Sendable, Hashable {
    let table: String
    let scope: String?
}
