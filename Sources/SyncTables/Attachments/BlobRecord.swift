import Foundation

/// What the store knows of one blob: one row per hash in `__blobs`, written in the same transaction as what
/// it records (an import, an upload, a download, a pin), so the folder's files and the store never disagree
/// for long: a file without a record is collected, and a record whose file is missing is downloaded again.
///
/// In an encrypted store the record holds the file's key, so removing the record leaves the file unreadable.
struct BlobRecord: SystemRecord, Hashable {
    static var table: String { SystemTables.blobs }

    static let definition = TableDefinition(name: SystemTables.blobs)

    /// The SHA-256 of the plain bytes (also the row's id and the file's name).
    var sha256: String
    /// The plain size in bytes.
    var size: Int64
    /// The media type the attachment was imported with, if any.
    var contentType: String?
    /// When the blob was imported, received or last stored by a write: the grace period before an unreferenced
    /// blob is collected counts from here.
    var touchedAt: Timestamp
    /// When the app last read the blob: the cache evicts the least recently used first.
    var lastUsedAt: Timestamp
    /// Whether the app pinned it: a pinned blob that a row references is never evicted.
    var pinned: Bool
    /// Whether the server is known to have it: it is not uploaded again, and the local file may be evicted.
    var onServer: Bool
    /// The complete file is in the folder.
    var isLocal: Bool
    /// The resumable upload in progress (the server's upload resource), kept so a killed process resumes.
    var uploadLocation: String?
    /// The file's key, when the store is encrypted (``BlobSealing``).
    var sealing: BlobSealing?

    enum Field {
        static let size = "size"
        static let contentType = "contentType"
        static let touchedAt = "touchedAt"
        static let lastUsedAt = "lastUsedAt"
        static let pinned = "pinned"
        static let onServer = "onServer"
        static let isLocal = "isLocal"
        static let uploadLocation = "uploadLocation"
        static let key = "key"
    }

    init(
        sha256: String, size: Int64, contentType: String?, at time: Timestamp, isLocal: Bool, onServer: Bool,
        sealing: BlobSealing?
    ) {
        self.sha256 = sha256
        self.size = size
        self.contentType = contentType
        self.touchedAt = time
        self.lastUsedAt = time
        self.pinned = false
        self.onServer = onServer
        self.isLocal = isLocal
        self.sealing = sealing
    }

    var row: JSONObject {
        var properties: [String: JSONValue] = [
            "id": .string(sha256),
            Field.size: .integer(size),
            Field.touchedAt: .string(touchedAt.iso8601),
            Field.lastUsedAt: .string(lastUsedAt.iso8601),
            Field.pinned: .bool(pinned),
            Field.onServer: .bool(onServer),
            Field.isLocal: .bool(isLocal),
        ]
        if let contentType { properties[Field.contentType] = .string(contentType) }
        if let uploadLocation { properties[Field.uploadLocation] = .string(uploadLocation) }
        if let sealing { properties[Field.key] = .string(sealing.keyText) }
        return JSONObject(properties)
    }

    init(_ row: SystemRow) throws(SyncError) {
        sha256 = try row.string("id")
        size = Int64(try row.integer(Field.size))
        contentType = row.optionalString(Field.contentType)
        touchedAt = try row.timestamp(Field.touchedAt)
        lastUsedAt = try row.timestamp(Field.lastUsedAt)
        pinned = row.object[Field.pinned] == .bool(true)
        onServer = row.object[Field.onServer] == .bool(true)
        isLocal = row.object[Field.isLocal] == .bool(true)
        uploadLocation = row.optionalString(Field.uploadLocation)
        if let key = row.optionalString(Field.key) {
            guard let sealing = BlobSealing(keyText: key) else { throw row.corrupt(Field.key) }
            self.sealing = sealing
        }
    }

    // MARK: Storage

    /// The record of `sha256`, if any.
    static func find(_ sha256: String, in transaction: any StoreTransaction) throws -> BlobRecord? {
        try transaction.lookup(table: table, id: sha256).map { try BlobRecord(row: $0) }
    }

    /// The record of `sha256`, read in a transaction of its own.
    static func stored(_ sha256: String, in store: any LocalStore) async throws -> BlobRecord? {
        try await store.lookup(table: table, id: sha256).map { try BlobRecord(row: $0) }
    }

    /// Changes the record of `sha256`, if any, in a transaction of its own.
    static func update(
        _ sha256: String, in store: any LocalStore, _ change: @escaping @Sendable (inout BlobRecord) -> Void
    ) async throws {
        try await store.write { transaction in
            guard var record = try find(sha256, in: transaction) else { return }
            change(&record)
            try record.save(in: transaction)
        }
    }

    /// Every record.
    static func all(in transaction: any StoreTransaction) throws -> [BlobRecord] {
        try transaction.read(StoreQuery(table: table)).map { try BlobRecord(row: $0) }
    }

    /// Removes the records of `hashes`.
    static func remove(_ hashes: [String], in transaction: any StoreTransaction) throws {
        guard !hashes.isEmpty else { return }
        _ = try transaction.delete(table: table, ids: hashes)
    }
}

extension BlobSealing: Hashable {
    static func == (lhs: BlobSealing, rhs: BlobSealing) -> Bool { lhs.keyText == rhs.keyText }
    func hash(into hasher: inout Hasher) { hasher.combine(keyText) }
}
