import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Puts the files an operation's item references on the server before the operation is sent, so no device
/// ever pulls a row whose file is missing. One push shares one, so a blob several operations reference
/// goes once, even when they are sent side by side.
///
/// A blob the server has already (another device uploaded it, or an earlier push did and its answer was lost)
/// is not sent again. A large one goes as a resumable upload whose location is kept in the blob's record
/// before any byte is sent, so an upload cut by a dropped connection or a killed process continues where the
/// server's copy ends. The file is read from disk a chunk at a time (decrypted on the way in an encrypted
/// store), never whole.
final class AttachmentUploads: Sendable {
    let store: any LocalStore
    let client: SyncClient
    let blobs: BlobFolder
    let events: Broadcaster<SyncEvent>
    /// The uploads running now, by hash: a second operation referencing one waits for the same upload.
    private let running = LockedState([String: Task<Void, any Error>]())

    init(store: any LocalStore, client: SyncClient, blobs: BlobFolder, events: Broadcaster<SyncEvent>) {
        self.store = store
        self.client = client
        self.blobs = blobs
        self.events = events
    }

    /// Uploads what `item` references through `properties` and the server lacks.
    func upload(referencedBy item: JSONObject, properties: [String]) async throws {
        var seen: Set<String> = []
        for sha256 in AttachmentReferences.hashes(in: item, properties: properties) where seen.insert(sha256).inserted {
            try await upload(sha256)
        }
    }

    private func upload(_ sha256: String) async throws {
        let task = running.withLock { running in
            if let task = running[sha256] { return task }
            let task = Task { try await self.send(sha256) }
            running[sha256] = task
            return task
        }
        defer { running.withLock { _ = $0.removeValue(forKey: sha256) } }
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func send(_ sha256: String) async throws {
        guard let record = try await BlobRecord.stored(sha256, in: store) else {
            throw AttachmentError.notImported(sha256: sha256)
        }
        if record.onServer { return }
        if try await client.blobExists(sha256: sha256) {
            try await BlobRecord.update(sha256, in: store) { $0.onServer = true }
            events.publish(.attachmentTransferred(sha256: sha256, direction: .upload, bytes: record.size))
            return
        }
        guard record.isLocal, blobs.contains(sha256) else { throw AttachmentError.notOnDevice(sha256: sha256) }
        let blobs = self.blobs
        let body = UploadBody(length: record.size) { offset in try blobs.reader(record, offset: offset) }
        let progress = TransferProgress(sha256: sha256, direction: .upload, total: record.size, events: events)
        do {
            try await client.uploadBlob(
                sha256: sha256, body: body, resumeAt: record.uploadLocation,
                saveLocation: { [store] location in
                    try await BlobRecord.update(sha256, in: store) { $0.uploadLocation = location }
                },
                progress: { progress.report($0) })
        } catch BlobError.hashMismatch {
            // The file no longer hashes to its name: it was damaged on disk. Nothing can send it again.
            try? await blobs.forgetDamaged(sha256, in: store)
            throw AttachmentError.damaged(sha256: sha256)
        }
        try await BlobRecord.update(sha256, in: store) {
            $0.onServer = true
            $0.uploadLocation = nil
        }
        events.publish(.attachmentTransferred(sha256: sha256, direction: .upload, bytes: record.size))
    }
}
