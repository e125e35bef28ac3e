import Foundation

/// Removes attachment files the device no longer needs, in one store transaction for the records and the
/// files after it commits (a crash between leaves files without records, which the next collection removes):
///
/// - blobs no row references, not pinned, untouched for the grace period (it covers the time between an
///   import and the write that stores its attachment);
/// - beyond the cache budget, the least recently used files the server has, except pinned ones a row
///   references (the record stays while a row references it; the file is downloaded again when needed);
/// - files without a record, and temporary or partial files older than the grace period.
///
/// A blob not on the server yet is never evicted: its file is the only copy.
struct AttachmentCollector: Sendable {
    let store: any LocalStore
    let blobs: BlobFolder
    let gracePeriod: Duration
    let cacheBytes: Int64?
    let now: Date

    func run() async throws -> AttachmentCollection {
        let cutoff = Timestamp(date: now.addingTimeInterval(-gracePeriod.timeInterval))
        let (collection, removed) = try await store.write { transaction in
            try collect(olderThan: cutoff, in: transaction)
        }
        for sha256 in removed { blobs.remove(sha256) }
        var result = collection
        let recorded = try await store.read(StoreQuery(table: BlobRecord.table)).compactMap {
            try? BlobRecord(row: $0)
        }
        let known = Set(recorded.map(\.sha256))
        let (files, stale) = blobs.contents(staleBefore: now.addingTimeInterval(-gracePeriod.timeInterval))
        for sha256 in files where !known.contains(sha256) && isOld(blobs.fileURL(sha256)) {
            blobs.remove(sha256)
            result.leftovers += 1
        }
        for url in stale {
            try? FileManager.default.removeItem(at: url)
            result.leftovers += 1
        }
        return result
    }

    /// Decides and removes the records; returns what was collected and the hashes whose files go.
    private func collect(olderThan cutoff: Timestamp, in transaction: any StoreTransaction) throws
        -> (AttachmentCollection, [String])
    {
        let referenced = try Self.referencedHashes(in: transaction)
        var collection = AttachmentCollection()
        var removedFiles: [String] = []
        var kept: [BlobRecord] = []
        var forgotten: [String] = []
        for record in try BlobRecord.all(in: transaction) {
            if !referenced.contains(record.sha256), !record.pinned, record.touchedAt < cutoff {
                forgotten.append(record.sha256)
                if record.isLocal {
                    collection.unreferenced += 1
                    collection.freedBytes += record.size
                    removedFiles.append(record.sha256)
                }
            } else if record.isLocal {
                kept.append(record)
            }
        }
        try BlobRecord.remove(forgotten, in: transaction)

        var keptBytes = kept.reduce(Int64(0)) { $0 + $1.size }
        if let budget = cacheBytes, keptBytes > budget {
            for var record in kept.sorted(by: { $0.lastUsedAt < $1.lastUsedAt }) where keptBytes > budget {
                let isReferenced = referenced.contains(record.sha256)
                guard record.onServer, !(record.pinned && isReferenced) else { continue }
                keptBytes -= record.size
                collection.evicted += 1
                collection.freedBytes += record.size
                removedFiles.append(record.sha256)
                if isReferenced {
                    record.isLocal = false
                    try record.save(in: transaction)
                } else {
                    try BlobRecord.remove([record.sha256], in: transaction)
                }
            }
        }
        collection.keptBytes = keptBytes
        return (collection, removedFiles)
    }

    /// The hashes the rows of every table with attachment properties reference.
    static func referencedHashes(in transaction: any StoreTransaction) throws -> Set<String> {
        var hashes: Set<String> = []
        for record in try TableRulesRecord.all(in: transaction) where !record.rules.attachments.isEmpty {
            let properties = record.rules.attachments
            for row in try transaction.read(StoreQuery(table: record.table)) {
                hashes.formUnion(AttachmentReferences.hashes(in: row, properties: properties))
            }
        }
        return hashes
    }

    private func isOld(_ url: URL) -> Bool {
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
        return (modified ?? .distantPast) < now.addingTimeInterval(-gracePeriod.timeInterval)
    }
}
