#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables
    import SyncTablesSQLCipher
    import Testing

    /// An encrypted store's attachment files are sealed with keys that live only in the store.
    @Suite("Attachment files of encrypted stores")
    struct AttachmentEncryptionTests {
        /// 200 KiB with a pattern that is easy to look for on disk.
        private static let plain = Data(
            (0..<(200 * 1024)).map { UInt8(truncatingIfNeeded: ($0 % 64) &+ 65) })

        private static func folderFiles(_ path: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path + ".blobs")) ?? []).sorted()
        }

        @Test func anImportedFileIsSealedOnDiskAndReadsBackPlain() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let context = try await SyncContext(store: EncryptedSQLiteStore(path: path, key: Fixtures.passphrase))

            let attachment = try await context.importAttachment(Self.plain, contentType: "text/plain")

            let onDisk = try Data(contentsOf: URL(fileURLWithPath: path + ".blobs/" + attachment.sha256))
            #expect(Int64(onDisk.count) == BlobSealing.sealedSize(of: Int64(Self.plain.count)))
            #expect(onDisk.range(of: Self.plain.prefix(64)) == nil)
            #expect(try await context.attachmentData(attachment) == Self.plain)
            try await context.close()
        }

        @Test func aSealedFileChangedOnDiskFailsItsCheckAndIsRemoved() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let context = try await SyncContext(store: EncryptedSQLiteStore(path: path, key: Fixtures.passphrase))
            let attachment = try await context.importAttachment(Self.plain)
            let file = URL(fileURLWithPath: path + ".blobs/" + attachment.sha256)
            var sealed = try Data(contentsOf: file)
            sealed[70_000] ^= 0x01
            try sealed.write(to: file)

            await #expect(throws: SyncError.attachment(.damaged(sha256: attachment.sha256))) {
                try await context.attachmentData(attachment)
            }
            #expect(!FileManager.default.fileExists(atPath: file.path))
            try await context.close()
        }

        @Test func aSealedFileCutAtAChunkBoundaryDoesNotReadAsAShorterBlob() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let context = try await SyncContext(store: EncryptedSQLiteStore(path: path, key: Fixtures.passphrase))
            let attachment = try await context.importAttachment(Self.plain)
            let file = URL(fileURLWithPath: path + ".blobs/" + attachment.sha256)
            let sealed = try Data(contentsOf: file)
            try sealed.prefix(2 * BlobSealing.sealedChunkSize).write(to: file)

            await #expect(throws: SyncError.self) { try await context.attachmentData(attachment) }
            try await context.close()
        }

        @Test func aDownloadCutShortResumesFromItsWholeSealedChunksWithTheSameHash() throws {
            let directory = try TemporaryDirectory()
            let url = directory.url.appendingPathComponent("blob.partial")
            let sealing = BlobSealing.random()
            let first = try BlobFileWriter(creating: url, sealing: sealing)
            try first.write(Self.plain.prefix(150_000))
            try first.flush()
            // Killed here: the last, incomplete chunk never reached the disk.

            let resumed = try BlobFileWriter(resuming: url, sealing: sealing)
            #expect(resumed.size == Int64(2 * BlobSealing.chunkSize))
            try resumed.write(Self.plain.suffix(from: Int(resumed.size)))
            let hash = try resumed.finish()

            let written = try BlobFileReader(
                url: url, sha256: hash, size: Int64(Self.plain.count), sealing: sealing)
            var read = Data()
            while case let chunk = try written.read(upTo: 50_000), !chunk.isEmpty { read.append(chunk) }
            #expect(read == Self.plain)
            var hasher = BlobHasher()
            hasher.update(Self.plain)
            #expect(hash == hasher.hex)
        }

        @Test func aWipeRemovesTheFilesAndTheKeys() async throws {
            let directory = try TemporaryDirectory()
            let path = directory.newDatabasePath()
            let context = try await SyncContext(store: EncryptedSQLiteStore(path: path, key: Fixtures.passphrase))
            _ = try await context.importAttachment(Self.plain)

            let summary = try await context.wipe()

            #expect(summary.attachments == 1)
            #expect(Self.folderFiles(path).isEmpty)
            #expect(try await context.store.count(StoreQuery(table: BlobRecord.table)) == 0)
            try await context.close()
        }
    }
#endif
