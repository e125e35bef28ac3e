import Foundation
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A photo with its caption, on a server whose declared tables check every attachment: a row whose file the
/// server does not have is refused (422), so a push that sent a row before its file would fail.
struct Photo: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var caption: String
    var image: FileAttachment?
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) { $0.attachment(.image) }
}

/// The same photos on a device that downloads every file a pull brings.
struct EagerPhoto: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var caption: String
    var image: FileAttachment?
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) {
        $0.attachment(.image)
        $0.downloadAttachmentsEagerly()
    }
}

let photoTables = """
    tables:
      Photo:
        access: authenticated
        columns: { caption: string, image: attachment }
    """

/// Attachments through a real `sync-server`: uploaded before the rows that reference them, downloaded by
/// another device, sent once.
@Suite("Attachment sync")
struct AttachmentSyncTests {
    @Test func aPushUploadsTheFileBeforeTheRowThatReferencesItAndAnotherDeviceDownloadsIt() async throws {
        try await SyncHarness.with(declaredTables: photoTables) { harness in
            let a = try await harness.device()
            let photos = try await a.context.table(Photo.self)
            let bytes = AttachmentBytes.make(6 << 20)  // above the threshold of resumable uploads
            let image = try await a.context.importAttachment(bytes, contentType: "image/jpeg", name: "wall.jpg")
            try await photos.insert(Photo(id: "p1", caption: "crack", image: image))

            try await a.context.push()

            let b = try await harness.device()
            let received = try await b.context.table(Photo.self)
            try await received.pull(queryId: "all")
            let pulled = try #require(try await received.lookup(id: "p1"))
            #expect(pulled.image == image)
            #expect(try await b.context.isAttachmentOnDevice(image) == false)
            #expect(try await b.context.attachmentData(image) == bytes)
            #expect(try await b.context.isAttachmentOnDevice(image))
        }
    }

    @Test func aFileTheServerHasAlreadyIsNotSentAgain() async throws {
        try await SyncHarness.with(declaredTables: photoTables) { harness in
            let bytes = AttachmentBytes.make(300_000)
            let a = try await harness.device()
            let image = try await a.context.importAttachment(bytes)
            try await a.context.table(Photo.self).insert(Photo(id: "p1", caption: "a", image: image))
            try await a.context.push()

            let b = try await harness.device()
            let events = b.context.events
            let again = try await b.context.importAttachment(bytes)
            try await b.context.table(Photo.self).insert(Photo(id: "p2", caption: "b", image: again))
            try await b.context.push()

            let seen = await Self.collect(events, until: { if case .pushFinished = $0 { true } else { false } })
            #expect(!seen.contains { if case .attachmentProgress = $0 { true } else { false } })
            #expect(seen.contains(.attachmentTransferred(sha256: again.sha256, direction: .upload, bytes: 300_000)))
        }
    }

    @Test func aPullOfATableThatDownloadsEagerlyBringsTheFilesWithTheRows() async throws {
        try await SyncHarness.with { harness in
            let a = try await harness.device()
            let images = try await (0..<3).asyncMap { index in
                try await a.context.importAttachment(AttachmentBytes.make(10_000 + index))
            }
            let photos = try await a.context.table(EagerPhoto.self, named: "Photo")
            for (index, image) in images.enumerated() {
                try await photos.insert(EagerPhoto(id: "p\(index)", caption: "x", image: image))
            }
            try await a.context.push()

            let b = try await harness.device()
            try await b.context.table(EagerPhoto.self, named: "Photo").pull(queryId: "all")

            for image in images { #expect(try await b.context.isAttachmentOnDevice(image)) }
        }
    }

    /// Collects events until one matches `stop` (or ten seconds pass).
    static func collect(_ events: AsyncStream<SyncEvent>, until stop: @escaping @Sendable (SyncEvent) -> Bool) async
        -> [SyncEvent]
    {
        await withTaskGroup(of: [SyncEvent].self) { group in
            group.addTask {
                var seen: [SyncEvent] = []
                for await event in events {
                    seen.append(event)
                    if stop(event) { break }
                }
                return seen
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
