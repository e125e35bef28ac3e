import Foundation
import Logging
import SyncTables

/// The blob storage, who may use which blob, and the sweepers, as the server's responder uses them.
struct BlobService: Sendable {
    let storage: any BlobStorage
    /// Who may read and upload which blobs; `nil` in development mode, where every caller may.
    let access: BlobAccess?
    /// Removes resumable uploads left unfinished past ``SyncServerConfiguration/blobRetention``, after blob
    /// requests, up to 100 a step.
    let sweeper: BoundedSweeper
    /// Removes blobs no live row references, last uploaded before ``SyncServerConfiguration/blobHorizon``,
    /// after blob requests, up to 100 a step; `nil` in development mode, where no references are known.
    let unreferencedSweeper: BoundedSweeper?

    init(storage: any BlobStorage, access: BlobAccess?, configuration: SyncServerConfiguration) {
        self.storage = storage
        self.access = access
        let retention = configuration.blobRetention
        sweeper = BoundedSweeper(
            removing: "expired uploads", stepLimit: 100, clock: configuration.clock, logger: configuration.logger
        ) { now, limit in
            try await storage.removeUploads(createdBefore: now.addingTimeInterval(-retention.seconds), limit: limit)
        }
        let horizon = configuration.blobHorizon
        unreferencedSweeper = access.map { access in
            BoundedSweeper(
                removing: "unreferenced blobs", stepLimit: 100, clock: configuration.clock,
                logger: configuration.logger
            ) { now, limit in
                // Forgotten first, then removed: a blob whose removal fails stays on disk, unreadable.
                let forgotten = try await access.index.forgetUnreferencedBlobs(
                    uploadedBefore: now.addingTimeInterval(-horizon.seconds), limit: limit)
                for blob in forgotten { try await storage.remove(blob) }
                return forgotten.count
            }
        }
    }

    /// Takes the sweepers' steps that are due (bounded, and each at most once a minute).
    func sweepIfDue() async {
        await sweeper.sweepIfDue()
        await unreferencedSweeper?.sweepIfDue()
    }
}
