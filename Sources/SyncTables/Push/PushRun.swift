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
    /// Operations this push claimed and does not send again, though a rewind moves the claims back before
    /// them (a retry takes its operation out again).
    private(set) var handled: Set<String> = []
    /// The largest sequence claimed so far: past a rewind, claims meet handled operations up to it.
    private var furthestClaimed = 0
    /// Which operations wait for their parents, from the rules read when the push started.
    let holds: ParentHolds
    /// Where to resume after a retry: just before the earliest operation to send again.
    private var retryFrom: Int?

    init(pushId: String, holds: ParentHolds) {
        self.pushId = pushId
        self.holds = holds
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

    /// Moves past an operation just claimed, which the push does not send again.
    mutating func claimed(_ operation: PendingOperation) {
        lastSequence = operation.sequence
        handled.insert(operation.id)
        furthestClaimed = max(furthestClaimed, operation.sequence)
    }

    /// Lets a retried operation be claimed again.
    mutating func release(_ operation: PendingOperation) {
        handled.remove(operation.id)
    }

    /// The handled operations the next claim can meet: none unless a rewind moved it back, so a claim made
    /// going forward never shares (and a later insert never copies) the set.
    var handledAhead: Set<String> { lastSequence < furthestClaimed ? handled : [] }

    /// Asks the next claim to start after `sequence` again: to retry an operation, or to reach the children
    /// passed over while their parent's insert was on its way.
    mutating func retry(after sequence: Int) {
        retryFrom = min(retryFrom ?? sequence, sequence)
    }

    /// Moves back to the earliest retry asked for since the last call; returns whether one was.
    @discardableResult
    mutating func rewindForRetry() -> Bool {
        defer { retryFrom = nil }
        guard let retryFrom else { return false }
        lastSequence = min(lastSequence, retryFrom)
        return true
    }
}
