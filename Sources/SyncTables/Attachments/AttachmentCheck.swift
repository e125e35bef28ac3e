/// Checks, before a local write commits, that every attachment its items reference is one this device can
/// send: imported here, or already on the server (the stored row being changed referenced it). A write that
/// names any other blob would succeed locally and fail on the server, so it fails now.
struct AttachmentCheck: Sendable {
    /// The table written.
    let table: String
    /// Its attachment properties (``SyncRules/attachments``).
    let properties: [String]
    /// What each change's item references, by item id.
    private let referenced: [(itemId: String, attachments: [FileAttachment])]

    /// The check of `changes`; throws ``AttachmentError/notAnAttachment(table:property:)`` at once when an
    /// attachment property holds something else.
    init(table: String, properties: [String], changes: [LocalChange]) throws(AttachmentError) {
        self.table = table
        self.properties = properties
        var referenced: [(String, [FileAttachment])] = []
        for change in changes {
            switch change {
            case .insert(let item), .update(let item), .save(let item):
                let attachments = try AttachmentReferences.attachments(
                    in: item, properties: properties, table: table)
                if !attachments.isEmpty { referenced.append((change.itemId, attachments)) }
            case .delete:
                continue
            }
        }
        self.referenced = referenced
    }

    /// Whether no change references an attachment.
    var isEmpty: Bool { referenced.isEmpty }

    /// Runs the check in the write's transaction. A blob the stored row already referenced (it came with a
    /// pull) gets a record saying the server has it.
    func confirm(at now: Timestamp, in transaction: any StoreTransaction) throws {
        for (itemId, attachments) in referenced {
            var storedHashes: Set<String>?
            for attachment in attachments {
                if let record = try BlobRecord.find(attachment.sha256, in: transaction) {
                    guard record.size == attachment.size else {
                        throw AttachmentError.sizeMismatch(
                            sha256: attachment.sha256, expected: attachment.size, actual: record.size)
                    }
                    continue
                }
                if storedHashes == nil {
                    let stored = try transaction.lookup(table: table, id: itemId)
                    storedHashes = Set(stored.map { AttachmentReferences.hashes(in: $0, properties: properties) } ?? [])
                }
                guard storedHashes?.contains(attachment.sha256) == true else {
                    throw AttachmentError.notImported(sha256: attachment.sha256)
                }
                try BlobRecord(
                    sha256: attachment.sha256, size: attachment.size, contentType: attachment.contentType, at: now,
                    isLocal: false, onServer: true, sealing: nil
                ).save(in: transaction)
            }
        }
    }
}

extension SyncContext {
    /// The check of a write's attachments; `nil` when the table declares none or no change references one.
    func attachmentCheck(of changes: [LocalChange], to table: String) async throws -> AttachmentCheck? {
        let key = table.lowercased()
        let rules: SyncRules
        if let known = storedRules[key] {
            rules = known
        } else {
            rules = try await TableRulesRecord.rules(of: table, in: store)
            storedRules[key] = rules
        }
        guard !rules.attachments.isEmpty else { return nil }
        let check: AttachmentCheck
        do {
            check = try AttachmentCheck(table: table, properties: rules.attachments, changes: changes)
        } catch {
            throw SyncError.attachment(error)
        }
        return check.isEmpty ? nil : check
    }
}
