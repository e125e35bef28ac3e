import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Importing files and bytes into the blob folder beside the store, and storing their attachments in items.
@Suite("Attachment import")
struct AttachmentImportTests {
    @Test func importedBytesAreStoredOnceBesideTheStoreNamedByTheirHash() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let context = try await SyncContext(store: SQLiteStore(path: path))
        let bytes = AttachmentBytes.make(300_000)

        let first = try await context.importAttachment(bytes, contentType: "image/jpeg", name: "a.jpg")
        let second = try await context.importAttachment(bytes, contentType: "image/jpeg", name: "b.jpg")

        let hash = AttachmentBytes.sha256(bytes)
        #expect(first.sha256 == hash && first.size == 300_000 && first.name == "a.jpg")
        #expect(second.sha256 == hash && second.name == "b.jpg")
        let folder = URL(fileURLWithPath: path + ".blobs")
        #expect(AttachmentBytes.files(in: folder) == [hash])
        #expect(try Data(contentsOf: folder.appendingPathComponent(hash)) == bytes)
        #expect(try await context.attachmentData(first) == bytes)
        try await context.close()
    }

    @Test func aFileIsImportedInChunksWithItsNameAndTheSameHashAsItsBytes() async throws {
        let directory = try TemporaryDirectory()
        let context = try await SyncContext(store: SQLiteStore(path: directory.newDatabasePath()))
        let source = directory.url.appendingPathComponent("IMG_0042.jpg")
        let bytes = AttachmentBytes.make(3 * 1_048_576 + 17)
        try bytes.write(to: source)

        let attachment = try await context.importAttachment(contentsOf: source, contentType: "image/jpeg")

        #expect(attachment.sha256 == AttachmentBytes.sha256(bytes))
        #expect(attachment.size == Int64(bytes.count) && attachment.name == "IMG_0042.jpg")
        let exported = directory.url.appendingPathComponent("out.jpg")
        try await context.exportAttachment(attachment, to: exported)
        #expect(try Data(contentsOf: exported) == bytes)
        try await context.close()
    }

    @Test func aFileThatCannotBeReadIsRefusedAndLeavesNothingBehind() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let context = try await SyncContext(store: SQLiteStore(path: path))

        await #expect(throws: SyncError.self) {
            try await context.importAttachment(contentsOf: directory.url.appendingPathComponent("missing.jpg"))
        }

        #expect(AttachmentBytes.files(in: URL(fileURLWithPath: path + ".blobs")).isEmpty)
        #expect(try await context.store.count(StoreQuery(table: BlobRecord.table)) == 0)
        try await context.close()
    }

    @Test(arguments: ContextStoreKind.allCases)
    func anItemReferencingImportedAttachmentsIsStoredAndQueued(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let inspections = try await context.table(Inspection.self)
        let photo = try await context.importAttachment(AttachmentBytes.make(1000), contentType: "image/png")
        let document = try await context.importAttachment(AttachmentBytes.make(2000), name: "report.pdf")

        let saved = try await inspections.insert(
            Inspection(id: "i1", note: "crack", photo: photo, documents: [document, photo]))

        #expect(saved.photo == photo && saved.documents == [document, photo])
        #expect(try await context.pendingOperationCount() == 1)
        try await context.close()
    }

    @Test(arguments: ContextStoreKind.allCases)
    func anItemReferencingABlobThisDeviceNeverImportedIsRefusedAndNothingIsWritten(kind: ContextStoreKind) async throws
    {
        let context = try await kind.makeContext()
        let inspections = try await context.table(Inspection.self)
        let made = FileAttachment(sha256: String(repeating: "ab", count: 32), size: 10)
        var attempts = 0

        for item in [
            Inspection(id: "i1", note: "made up", photo: made),
            Inspection(id: "i2", note: "made up", documents: [made]),
        ] {
            attempts += 1
            await #expect(throws: SyncError.attachment(.notImported(sha256: made.sha256))) {
                try await inspections.insert(item)
            }
        }

        #expect(attempts == 2)
        #expect(try await inspections.query().fetchCount() == 0)
        #expect(try await context.pendingOperationCount() == 0)
        try await context.close()
    }

    @Test func anAttachmentWhoseSizeDoesNotMatchItsFileIsRefused() async throws {
        let context = try await ContextStoreKind.sqlite.makeContext()
        let inspections = try await context.table(Inspection.self)
        let photo = try await context.importAttachment(AttachmentBytes.make(1000))
        let lying = FileAttachment(sha256: photo.sha256, size: 5)

        await #expect(throws: SyncError.attachment(.sizeMismatch(sha256: photo.sha256, expected: 5, actual: 1000))) {
            try await inspections.insert(Inspection(id: "i1", note: "x", photo: lying))
        }
        #expect(try await inspections.query().fetchCount() == 0)
        try await context.close()
    }

    @Test func aDeclaredAttachmentPropertyHoldingSomethingElseIsRefusedAtOnce() async throws {
        let context = try await ContextStoreKind.memory.makeContext()
        try await context.setRules(SyncRules(attachments: ["photo"]), forTable: "notes")
        let notes = try await context.table(JSONObject.self, named: "notes")

        await #expect(throws: SyncError.attachment(.notAnAttachment(table: "notes", property: "photo"))) {
            try await notes.insert(["id": "n1", "photo": "not an attachment"])
        }
        #expect(try await notes.query().fetchCount() == 0)
        try await context.close()
    }

    @Test func aDamagedFileIsDetectedRemovedAndReportedAsDamaged() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.newDatabasePath()
        let context = try await SyncContext(store: SQLiteStore(path: path))
        let bytes = AttachmentBytes.make(5000)
        let attachment = try await context.importAttachment(bytes)
        let file = URL(fileURLWithPath: path + ".blobs").appendingPathComponent(attachment.sha256)
        var damaged = bytes
        damaged[100] ^= 0xFF
        try damaged.write(to: file)

        await #expect(throws: SyncError.attachment(.damaged(sha256: attachment.sha256))) {
            try await context.attachmentData(attachment)
        }

        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try await context.isAttachmentOnDevice(attachment) == false)
        try await context.close()
    }
}
