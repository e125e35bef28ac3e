@_spi(SyncTablesTools) import SyncTablesCore

/// Publishes an attachment transfer's progress as ``SyncEvent/attachmentProgress(sha256:direction:transferred:total:)``,
/// at most about a hundred times per transfer (every percent, or every 256 KiB of a small one), whatever
/// size the transport's chunks have.
final class TransferProgress: Sendable {
    let sha256: String
    let direction: AttachmentTransferDirection
    let total: Int64
    let events: Broadcaster<SyncEvent>
    private let step: Int64
    private let lastReported = LockedState(Int64(-1))

    init(sha256: String, direction: AttachmentTransferDirection, total: Int64, events: Broadcaster<SyncEvent>) {
        self.sha256 = sha256
        self.direction = direction
        self.total = total
        self.events = events
        step = max(total / 100, 256 * 1024)
    }

    /// Reports `transferred` bytes when it is a step past the last report, or the end.
    func report(_ transferred: Int64) {
        let due = lastReported.withLock { last in
            guard transferred >= total || transferred - last >= step, transferred != last else { return false }
            last = transferred
            return true
        }
        if due {
            events.publish(
                .attachmentProgress(sha256: sha256, direction: direction, transferred: transferred, total: total))
        }
    }
}
