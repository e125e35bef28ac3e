/// Where a store's attachment files stand (see <doc:SyncingAttachments>): part of ``StoreOverview``.
public struct AttachmentOverview: Sendable, Hashable {
    /// Files on the device.
    public var filesOnDevice: Int = 0
    /// Their bytes.
    public var bytesOnDevice: Int64 = 0
    /// Files rows reference that the server does not have yet: the next push uploads them first.
    public var awaitingUpload: Int = 0
    /// Their bytes.
    public var bytesAwaitingUpload: Int64 = 0
    /// Uploads cut short that the next push continues from the server's offset.
    public var uploadsInProgress: Int = 0
    /// Files rows reference that are not on the device: downloaded when read (or by an eager pull).
    public var notOnDevice: Int = 0

    /// An overview of no files.
    public init() {}

    /// The overview of the records and references in `transaction`.
    static func read(in transaction: any StoreTransaction) throws -> AttachmentOverview {
        let records = try BlobRecord.all(in: transaction)
        guard !records.isEmpty else { return AttachmentOverview() }
        let referenced = try AttachmentCollector.referencedHashes(in: transaction)
        var overview = AttachmentOverview()
        for record in records {
            if record.isLocal {
                overview.filesOnDevice += 1
                overview.bytesOnDevice += record.size
            }
            guard referenced.contains(record.sha256) else { continue }
            if !record.onServer {
                overview.awaitingUpload += 1
                overview.bytesAwaitingUpload += record.size
                if record.uploadLocation != nil { overview.uploadsInProgress += 1 }
            }
            if !record.isLocal { overview.notOnDevice += 1 }
        }
        return overview
    }
}
