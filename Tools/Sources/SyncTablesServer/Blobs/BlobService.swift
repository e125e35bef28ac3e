import Foundation
import Logging
import SyncTables

/// The blob storage and its sweeper, as the server's responder uses them.
struct BlobService: Sendable {
    let storage: any BlobStorage
    /// Removes resumable uploads left unfinished past ``SyncServerConfiguration/blobRetention``, after blob
    /// requests, up to 100 a step.
    let sweeper: BoundedSweeper

    init(storage: any BlobStorage, configuration: SyncServerConfiguration) {
        self.storage = storage
        let retention = configuration.blobRetention
        sweeper = BoundedSweeper(
            removing: "expired uploads", stepLimit: 100, clock: configuration.clock, logger: configuration.logger
        ) { now, limit in
            try await storage.removeUploads(createdBefore: now.addingTimeInterval(-retention.seconds), limit: limit)
        }
    }
}
