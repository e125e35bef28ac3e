import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Removing attachment files the device no longer needs: unreferenced ones after the grace period, the least
/// recently used ones beyond the cache budget, leftovers of crashes; and everything on a wipe.
@Suite("Attachment collection")
struct AttachmentCollectionTests {
    private struct Fixture {
        let directory: TemporaryDirectory
        let path: String
        let clock: ManualSyncClock
        let context: SyncContext
        let inspections: SyncTable<Inspection>

        init(cacheBytes: Int64? = nil) async throws {
            directory = try TemporaryDirectory()
            path = directory.newDatabasePath()
            clock = ManualSyncClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            var configuration = SyncContext.Configuration(clock: clock)
            configuration.attachmentGracePeriod = .seconds(600)
            configuration.attachmentCacheBytes = cacheBytes
            context = try await SyncContext(store: SQLiteStore(path: path), configuration: configuration)
            inspections = try await context.table(Inspection.self)
        }

        var folder: URL { URL(fileURLWithPath: path + ".blobs") }

        /// Marks blobs as on the server, as an upload does.
        func markOnServer(_ attachments: [FileAttachment]) async throws {
            try await context.store.write { transaction in
                for attachment in attachments {
                    guard var record = try BlobRecord.find(attachment.sha256, in: transaction) else { continue }
                    record.onServer = true
                    try record.save(in: transaction)
                }
            }
        }
    }

    @Test func anUnreferencedBlobIsKeptThroughTheGracePeriodThenRemovedWhileReferencedOnesStay() async throws {
        let fixture = try await Fixture()
        let referenced = try await fixture.context.importAttachment(AttachmentBytes.make(1000, seed: 1))
        let unreferenced = try await fixture.context.importAttachment(AttachmentBytes.make(2000, seed: 2))
        try await fixture.inspections.insert(Inspection(id: "i1", note: "kept", photo: referenced))

        fixture.clock.advance(by: .seconds(599))
        let early = try await fixture.context.collectAttachments()
        fixture.clock.advance(by: .seconds(2))
        let late = try await fixture.context.collectAttachments()

        #expect(early.unreferenced == 0)
        #expect(late.unreferenced == 1 && late.freedBytes == 2000 && late.keptBytes == 1000)
        #expect(AttachmentBytes.files(in: fixture.folder) == [referenced.sha256])
        #expect(try await fixture.context.isAttachmentOnDevice(unreferenced) == false)
        try await fixture.context.close()
    }

    @Test func aBlobWhoseLastRowWasDeletedIsCollectedAfterTheGracePeriod() async throws {
        let fixture = try await Fixture()
        let photo = try await fixture.context.importAttachment(AttachmentBytes.make(1000))
        try await fixture.inspections.insert(Inspection(id: "i1", note: "x", photo: photo))
        fixture.clock.advance(by: .seconds(3600))
        #expect(try await fixture.context.collectAttachments().unreferenced == 0)

        try await fixture.inspections.delete(id: "i1")
        let collected = try await fixture.context.collectAttachments()

        #expect(collected.unreferenced == 1)
        #expect(AttachmentBytes.files(in: fixture.folder).isEmpty)
        try await fixture.context.close()
    }

    @Test func evictionBeyondTheBudgetTakesTheLeastRecentlyUsedAndKeepsPinnedReferencedAndUnsentBlobs() async throws {
        let fixture = try await Fixture(cacheBytes: 2500)
        let old = try await fixture.context.importAttachment(AttachmentBytes.make(1000, seed: 1))
        let pinned = try await fixture.context.importAttachment(AttachmentBytes.make(1000, seed: 2))
        let unsent = try await fixture.context.importAttachment(AttachmentBytes.make(1000, seed: 3))
        let recent = try await fixture.context.importAttachment(AttachmentBytes.make(1000, seed: 4))
        try await fixture.inspections.insert(
            Inspection(id: "i1", note: "x", photo: pinned, documents: [old, unsent, recent]))
        try await fixture.context.pinAttachment(pinned)
        try await fixture.markOnServer([old, pinned, recent])
        // Used in this order: pinned first (least recent), then old, then recent.
        for attachment in [pinned, old, recent] {
            fixture.clock.advance(by: .seconds(1))
            _ = try await fixture.context.attachmentData(attachment)
        }

        let collected = try await fixture.context.collectAttachments()

        #expect(collected.evicted == 2 && collected.unreferenced == 0 && collected.keptBytes == 2000)
        #expect(AttachmentBytes.files(in: fixture.folder) == [pinned.sha256, unsent.sha256])
        #expect(try await fixture.context.isAttachmentOnDevice(old) == false)
        #expect(try await fixture.context.isAttachmentOnDevice(recent) == false)
        // The rows still reference the evicted blobs, and can be updated without them on the device.
        try await fixture.inspections.update(
            Inspection(id: "i1", note: "edited", photo: pinned, documents: [old, unsent, recent]))
        try await fixture.context.close()
    }

    @Test func theOverviewCountsFilesOnTheDeviceAndThoseWaitingForUpload() async throws {
        let fixture = try await Fixture()
        let sent = try await fixture.context.importAttachment(AttachmentBytes.make(1000, seed: 1))
        let waiting = try await fixture.context.importAttachment(AttachmentBytes.make(2000, seed: 2))
        _ = try await fixture.context.importAttachment(AttachmentBytes.make(4000, seed: 3))  // not referenced
        try await fixture.inspections.insert(Inspection(id: "i1", note: "x", photo: sent, documents: [waiting]))
        try await fixture.markOnServer([sent])

        let overview = try await fixture.context.overview().attachments

        #expect(overview.filesOnDevice == 3 && overview.bytesOnDevice == 7000)
        #expect(overview.awaitingUpload == 1 && overview.bytesAwaitingUpload == 2000)
        #expect(overview.notOnDevice == 0 && overview.uploadsInProgress == 0)
        try await fixture.context.close()
    }

    @Test func filesLeftByACrashAreCollected() async throws {
        let fixture = try await Fixture()
        let kept = try await fixture.context.importAttachment(AttachmentBytes.make(100))
        try await fixture.inspections.insert(Inspection(id: "i1", note: "x", photo: kept))
        let orphan = String(repeating: "cd", count: 32)
        try Data([1, 2, 3]).write(to: fixture.folder.appendingPathComponent(orphan))
        try Data([4]).write(to: fixture.folder.appendingPathComponent("abc.incoming"))
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for name in [orphan, "abc.incoming"] {
            try FileManager.default.setAttributes(
                [.modificationDate: old], ofItemAtPath: fixture.folder.appendingPathComponent(name).path)
        }

        let collected = try await fixture.context.collectAttachments()

        #expect(collected.leftovers == 2)
        #expect(AttachmentBytes.files(in: fixture.folder) == [kept.sha256])
        try await fixture.context.close()
    }

    @Test func aWipeLeavesNoAttachmentFileAndNoRecordBehind() async throws {
        let fixture = try await Fixture()
        let photo = try await fixture.context.importAttachment(AttachmentBytes.make(1000))
        _ = try await fixture.context.importAttachment(AttachmentBytes.make(500))
        try await fixture.inspections.insert(Inspection(id: "i1", note: "x", photo: photo))

        let summary = try await fixture.context.wipe()

        #expect(summary.attachments == 2)
        #expect(AttachmentBytes.files(in: fixture.folder).isEmpty)
        #expect(try await fixture.context.store.count(StoreQuery(table: BlobRecord.table)) == 0)
        try await fixture.context.close()
    }
}
