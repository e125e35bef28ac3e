import Foundation

// Downloads: on demand (reading a file that is not here), ahead of time (downloadAttachment), and eagerly
// after a pull of a table whose rules ask for it.

extension SyncContext {
    /// Brings the attachment's file to the device unless it is here already, without reading it: to fill the
    /// cache ahead of time. Progress goes to ``events`` as
    /// ``SyncEvent/attachmentProgress(sha256:direction:transferred:total:)``.
    ///
    /// A download cut short keeps what arrived; the next one asks the server for the rest only. Downloads of
    /// the same file (in this process or another one sharing the store) take turns, and the later one finds
    /// the file here.
    ///
    /// ```swift
    /// for item in try await inspections.query().fetch() {
    ///     if let photo = item.photo { try await context.downloadAttachment(photo) }
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError/noClient`` without a server, ``SyncError/attachment(_:)`` when the server has no
    ///   such file or it does not match its attachment, ``SyncError/network(_:)`` when the connection fails
    ///   (what arrived is kept), and ``SyncError/server(_:)`` for other refusals.
    public nonisolated func downloadAttachment(_ attachment: FileAttachment) async throws {
        let download = AttachmentDownload(
            store: store, client: try requireClient(), blobs: blobs, events: eventBroadcaster,
            now: { [clock] in clock.now() })
        do {
            try await download.run(attachment)
        } catch BlobError.notFound(let sha256) {
            throw SyncError.attachment(.notOnDevice(sha256: sha256))
        } catch BlobError.notOffered {
            throw SyncError.attachment(.serverHasNoBlobs)
        } catch {
            throw SyncError(converting: error)
        }
    }

    /// Downloads the files the rows of `table` reference that are not on the device: what a pull of a table
    /// whose rules ask for eager downloads (``SyncRules/Declaration/downloadAttachmentsEagerly()``) does after
    /// its pages committed. Returns how many files it downloaded.
    ///
    /// - Throws: as ``downloadAttachment(_:)`` does, for the first file that fails; the files before it stay.
    @discardableResult
    public nonisolated func downloadMissingAttachments(table: String) async throws -> Int {
        let properties = try await TableRulesRecord.rules(of: table, in: store).attachments
        guard !properties.isEmpty else { return 0 }
        let (blobs, store) = (self.blobs, self.store)
        let missing = try await SyncError.mapping {
            try await store.write { transaction -> [FileAttachment] in
                var missing: [String: FileAttachment] = [:]
                for row in try transaction.read(StoreQuery(table: table)) {
                    for attachment in AttachmentReferences.readable(in: row, properties: properties)
                    where missing[attachment.sha256] == nil {
                        let record = try BlobRecord.find(attachment.sha256, in: transaction)
                        if record?.isLocal != true || !blobs.contains(attachment.sha256) {
                            missing[attachment.sha256] = attachment
                        }
                    }
                }
                return missing.values.sorted { $0.sha256 < $1.sha256 }
            }
        }
        for attachment in missing { try await downloadAttachment(attachment) }
        return missing.count
    }
}
