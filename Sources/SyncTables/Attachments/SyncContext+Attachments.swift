import Foundation

// Importing, reading and pinning attachments. Files are written and read off the context's executor (the
// store's thread): only the records go through the store.

extension SyncContext {
    /// Imports a file as an attachment: copies it once into the folder beside the store, named by its
    /// SHA-256 (encrypted under the `SQLCipher` trait), and returns the attachment to store in an item.
    ///
    /// Importing the same bytes again stores nothing new. The file is read in chunks, never whole. Until an
    /// item references it, the copy is kept for ``Configuration-swift.struct/attachmentGracePeriod``.
    ///
    /// ```swift
    /// let photo = try await context.importAttachment(contentsOf: url, contentType: "image/jpeg")
    /// try await inspections.insert(Inspection(id: "", note: "Crack", photo: photo))
    /// ```
    ///
    /// - Throws: ``SyncError/attachment(_:)`` with ``AttachmentError/unreadableFile(path:message:)`` when the
    ///   file cannot be read, ``AttachmentError/folder(path:message:)`` when the folder cannot be written, and
    ///   ``SyncError/store(_:)`` when the store fails. Nothing is kept then.
    public nonisolated func importAttachment(contentsOf file: URL, contentType: String? = nil, name: String? = nil)
        async throws -> FileAttachment
    {
        let written = try await SyncError.mapping {
            try blobs.write { writer in
                let handle: FileHandle
                do {
                    handle = try FileHandle(forReadingFrom: file)
                } catch {
                    throw AttachmentError.unreadableFile(path: file.path, message: error.localizedDescription)
                }
                defer { try? handle.close() }
                while true {
                    let chunk: Data
                    do {
                        chunk = try handle.read(upToCount: 1 << 20) ?? Data()
                    } catch {
                        throw AttachmentError.unreadableFile(path: file.path, message: error.localizedDescription)
                    }
                    if chunk.isEmpty { break }
                    try writer.write(chunk)
                }
            }
        }
        return try await keep(written, contentType: contentType, name: name ?? file.lastPathComponent)
    }

    /// Imports bytes as an attachment, as ``importAttachment(contentsOf:contentType:name:)`` imports a file.
    ///
    /// ```swift
    /// let signature = try await context.importAttachment(pngData, contentType: "image/png", name: "signature.png")
    /// ```
    ///
    /// - Throws: ``SyncError/attachment(_:)`` when the folder cannot be written, and ``SyncError/store(_:)``
    ///   when the store fails. Nothing is kept then.
    public nonisolated func importAttachment(_ bytes: Data, contentType: String? = nil, name: String? = nil)
        async throws -> FileAttachment
    {
        let written = try await SyncError.mapping { try blobs.write { try $0.write(bytes) } }
        return try await keep(written, contentType: contentType, name: name)
    }

    /// The attachment's bytes, read whole and checked against its hash: for small files. Marks it used.
    ///
    /// A file that is not on the device is downloaded first (see ``downloadAttachment(_:)``).
    ///
    /// - Throws: ``SyncError/attachment(_:)`` with ``AttachmentError/notOnDevice(sha256:)`` when its file is
    ///   neither on this device nor on the server, and ``AttachmentError/damaged(sha256:)`` when the file no
    ///   longer matches (it is removed); what ``downloadAttachment(_:)`` throws.
    public nonisolated func attachmentData(_ attachment: FileAttachment) async throws -> Data {
        var data = Data()
        try await readAttachment(attachment) { data.append($0) }
        return data
    }

    /// Writes the attachment's bytes to `destination` (replacing any file there), checked against its hash,
    /// a chunk at a time: to open a large file with another app, say. Marks it used.
    ///
    /// - Throws: as ``attachmentData(_:)`` does, and ``AttachmentError/folder(path:message:)`` when
    ///   `destination` cannot be written.
    public nonisolated func exportAttachment(_ attachment: FileAttachment, to destination: URL) async throws {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: destination)
        else {
            throw SyncError.attachment(.folder(path: destination.path, message: "cannot be written"))
        }
        defer { try? handle.close() }
        do {
            try await readAttachment(attachment) { try handle.write(contentsOf: $0) }
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
    }

    /// Whether the attachment's file is on this device.
    ///
    /// - Throws: ``SyncError/store(_:)`` when the store fails.
    public nonisolated func isAttachmentOnDevice(_ attachment: FileAttachment) async throws -> Bool {
        let record = try await SyncError.mapping { try await BlobRecord.stored(attachment.sha256, in: store) }
        return record?.isLocal == true && blobs.contains(attachment.sha256)
    }

    /// Pins an attachment (or unpins it): while a row references it, its file is never evicted to keep the
    /// cache within ``Configuration-swift.struct/attachmentCacheBytes``.
    ///
    /// - Throws: ``SyncError/attachment(_:)`` with ``AttachmentError/notImported(sha256:)`` when this device
    ///   knows no such attachment, and ``SyncError/store(_:)`` when the store fails.
    public nonisolated func pinAttachment(_ attachment: FileAttachment, _ pinned: Bool = true) async throws {
        try await SyncError.mapping {
            try await store.write { transaction in
                guard var record = try BlobRecord.find(attachment.sha256, in: transaction) else {
                    throw AttachmentError.notImported(sha256: attachment.sha256)
                }
                record.pinned = pinned
                try record.save(in: transaction)
            }
        }
    }

    // MARK: Internals

    /// Names a written blob by its hash and records it, in one store transaction (which orders importers
    /// of several processes); a blob already here keeps its file, and the written copy is dropped.
    private nonisolated func keep(_ written: WrittenBlob, contentType: String?, name: String?) async throws
        -> FileAttachment
    {
        let (blobs, now) = (self.blobs, Timestamp(date: clock.now()))
        let keptExisting = try await SyncError.mapping {
            try await store.write { transaction in
                if var record = try BlobRecord.find(written.sha256, in: transaction), record.isLocal,
                    blobs.contains(written.sha256)
                {
                    record.touchedAt = now
                    try record.save(in: transaction)
                    return true
                }
                try blobs.commit(written)
                var record = BlobRecord(
                    sha256: written.sha256, size: written.size, contentType: contentType, at: now, isLocal: true,
                    onServer: false, sealing: written.sealing)
                if let known = try BlobRecord.find(written.sha256, in: transaction) {
                    record.onServer = known.onServer
                    record.pinned = known.pinned
                    record.contentType = known.contentType ?? contentType
                }
                try record.save(in: transaction)
                return false
            }
        }
        if keptExisting { try? FileManager.default.removeItem(at: written.url) }
        return FileAttachment(sha256: written.sha256, size: written.size, contentType: contentType, name: name)
    }

    /// Reads the attachment's plain bytes in chunks into `receive`, checking the hash at the end; a file that
    /// fails the check is removed with its record's claim to be local. A file not on the device is downloaded
    /// first when the context has a client.
    nonisolated func readAttachment(
        _ attachment: FileAttachment, downloading: Bool = true, into receive: (Data) throws -> Void
    ) async throws {
        let sha256 = attachment.sha256
        let now = Timestamp(date: clock.now())
        let record = try await SyncError.mapping {
            try await store.write { transaction -> BlobRecord? in
                guard var record = try BlobRecord.find(sha256, in: transaction), record.isLocal else { return nil }
                record.lastUsedAt = now
                try record.save(in: transaction)
                return record
            }
        }
        guard let record, blobs.contains(sha256) else {
            guard downloading, client != nil else { throw SyncError.attachment(.notOnDevice(sha256: sha256)) }
            try await downloadAttachment(attachment)
            return try await readAttachment(attachment, downloading: false, into: receive)
        }
        do {
            let reader = try blobs.reader(record)
            var hasher = BlobHasher()
            while true {
                let chunk = try reader.read(upTo: 1 << 20)
                if chunk.isEmpty { break }
                hasher.update(chunk)
                try receive(chunk)
            }
            guard hasher.hex == sha256 else { throw AttachmentError.damaged(sha256: sha256) }
        } catch AttachmentError.damaged(let sha256) {
            try? await blobs.forgetDamaged(sha256, in: store)
            throw SyncError.attachment(.damaged(sha256: sha256))
        } catch AttachmentError.sizeMismatch {
            try? await blobs.forgetDamaged(sha256, in: store)
            throw SyncError.attachment(.damaged(sha256: sha256))
        } catch {
            throw SyncError(converting: error)
        }
    }
}

extension SyncContext {
    /// Removes attachment files this device no longer needs: those no row has referenced for the grace
    /// period (``Configuration-swift.struct/attachmentGracePeriod``), and, beyond the cache budget
    /// (``Configuration-swift.struct/attachmentCacheBytes``), the least recently used ones the server has —
    /// except pinned ones a row references. A file not on the server yet is never removed while a row
    /// references it. Call it when the app is idle: at launch, or after a sync.
    ///
    /// ```swift
    /// let collected = try await context.collectAttachments()
    /// print("freed \(collected.freedBytes) bytes")
    /// ```
    ///
    /// - Throws: ``SyncError/store(_:)`` when the store fails; nothing is removed then.
    @discardableResult
    public nonisolated func collectAttachments() async throws -> AttachmentCollection {
        let collector = AttachmentCollector(
            store: store, blobs: blobs, gracePeriod: configuration.attachmentGracePeriod,
            cacheBytes: configuration.attachmentCacheBytes, now: clock.now())
        return try await SyncError.mapping { try await collector.run() }
    }
}
