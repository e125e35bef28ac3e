/// The state of one push while it runs: what it did, how it ends, and where it is in the queue.
struct PushRun: Sendable {
    /// Tags the errors recorded by this push.
    let pushId: String
    var summary = PushSummary()
    /// `.succeeded` while the push goes on; an abort sets why it stopped.
    var status = PushOutcome.succeeded
    /// Why the push was aborted, when it was.
    var reason: String?
    /// The next claim takes operations after this sequence.
    var lastSequence = 0
    /// How often each operation was sent again within this push because its conflict's resolution asked to.
    private var retries: [String: Int] = [:]
    /// Where to resume after a retry: just before the earliest operation to send again.
    private var retryFrom: Int?

    init(pushId: String) {
        self.pushId = pushId
    }

    /// The most times one operation is sent again within a push: a recreation may need two (the insert that
    /// meets the deleted item, then the update of the restored one); a resolution that asks for more waits for
    /// the next push.
    static let maxRetriesPerOperation = 2

    /// Whether a resolution may still send `operation` again within this push.
    func mayRetry(_ operation: PendingOperation) -> Bool {
        retries[operation.id, default: 0] < Self.maxRetriesPerOperation
    }

    /// Counts one more retry of `operation`.
    mutating func countRetry(of operation: PendingOperation) {
        retries[operation.id, default: 0] += 1
    }

    /// Whether the push goes on (not aborted or cancelled).
    var isGoingOn: Bool { status == .succeeded }

    /// Asks the next claim to start at `sequence` again (after the operations just handled).
    mutating func retry(after sequence: Int) {
        retryFrom = min(retryFrom ?? sequence, sequence)
    }

    /// Moves back to the earliest retry asked for since the last call.
    mutating func rewindForRetry() {
        if let retryFrom { lastSequence = retryFrom }
        retryFrom = nil
    }
}
