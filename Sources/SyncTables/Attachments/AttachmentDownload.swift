import Foundation

/// Brings one attachment's file to the device: streamed from the server to a partial file beside the store
/// (sealed as it is written, in an encrypted store), checked against its hash, then named by it.
///
/// A download cut short (a dropped connection, a killed process) keeps what it wrote: the next one asks the
/// server for the rest only (`Range`). The partial file's key is in the blob's record before any byte is
/// written, so a resumed download can read what an earlier process sealed. Processes sharing the store take
/// turns on the partial file through an exclusive lock on it.
struct AttachmentDownload: Sendable {
    let store: any LocalStore
    let client: SyncClient
    let blobs: BlobFolder
    let events: Broadcaster<SyncEvent>
    let now: @Sendable () -> Date

    /// Downloads `attachment` unless its file is here already.
    func run(_ attachment: FileAttachment) async throws {
        let sha256 = attachment.sha256
        let lock = try await PartialFileLock.acquire(blobs.partialURL(sha256).path + ".lock")
        defer { lock.release() }
        let time = Timestamp(date: now())
        let seals = blobs.seals
        // The record (with the partial file's key) exists before any byte is written.
        let record = try await store.write { transaction -> BlobRecord? in
            var record =
                try BlobRecord.find(sha256, in: transaction)
                ?? BlobRecord(
                    sha256: sha256, size: attachment.size, contentType: attachment.contentType, at: time,
                    isLocal: false, onServer: true, sealing: nil)
            if record.isLocal && blobs.contains(sha256) { return nil }
            record.isLocal = false
            record.onServer = true
            if seals, record.sealing == nil { record.sealing = .random() }
            if !seals { record.sealing = nil }
            try record.save(in: transaction)
            return record
        }
        guard let record else { return }
        try blobs.prepareFolder()
        let partial = blobs.partialURL(sha256)
        let writer = try BlobFileWriter(resuming: partial, sealing: record.sealing)
        let download = try await client.downloadBlob(sha256: sha256, from: writer.size)
        guard download.totalSize == attachment.size else {
            throw AttachmentError.sizeMismatch(sha256: sha256, expected: attachment.size, actual: download.totalSize)
        }
        let progress = TransferProgress(sha256: sha256, direction: .download, total: download.totalSize, events: events)
        if download.startOffset == 0, writer.size > 0 {
            // The server sent the whole blob instead of the rest: start the file over.
            try? FileManager.default.removeItem(at: partial)
            return try await run(attachment)
        }
        var unflushed = 0
        for try await chunk in download.body {
            try writer.write(chunk)
            unflushed += chunk.count
            if unflushed >= 4 << 20 {
                try writer.flush()  // what is on disk survives a kill, and a resume asks for the rest only
                unflushed = 0
            }
            progress.report(writer.size)
        }
        guard writer.size == attachment.size else {
            try writer.flush()
            throw AttachmentError.sizeMismatch(sha256: sha256, expected: attachment.size, actual: writer.size)
        }
        let hash = try writer.finish()
        let size = writer.size
        let finishedAt = Timestamp(date: now())
        guard hash == sha256 else {
            try? FileManager.default.removeItem(at: partial)
            throw AttachmentError.damaged(sha256: sha256)
        }
        try await store.write { transaction in
            guard var current = try BlobRecord.find(sha256, in: transaction), current.sealing == record.sealing else {
                // Another writer changed the record (an import of the same bytes): its file stands.
                try? FileManager.default.removeItem(at: partial)
                return
            }
            try blobs.commit(WrittenBlob(url: partial, sha256: sha256, size: size, sealing: record.sealing))
            current.isLocal = true
            current.touchedAt = finishedAt
            current.lastUsedAt = current.touchedAt
            try current.save(in: transaction)
        }
        progress.report(size)
        events.publish(.attachmentTransferred(sha256: sha256, direction: .download, bytes: size))
    }
}
