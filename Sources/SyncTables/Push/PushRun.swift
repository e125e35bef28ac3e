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
    /// Operations sent again after their conflict policy asked to retry (each is retried once per push).
    var retried: Set<String> = []
    /// Where to resume after a retry: just before the earliest operation to send again.
    private var retryFrom: Int?

    init(pushId: String) {
        self.pushId = pushId
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
