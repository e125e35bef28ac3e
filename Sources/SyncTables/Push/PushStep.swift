/// The result of pushing one operation, as the push loop needs it.
enum PushStep: Sendable {
    /// The server confirmed it; the operation left the queue.
    case pushed
    /// It failed and an error was recorded; the push goes on.
    case failed
    /// A conflict was resolved by the policy; the push goes on.
    case resolved
    /// The policy asked to send it again at once.
    case retry
    /// The server held an earlier attempt of it (a replayed answer); the local edits made since go at once.
    case sendAgain
    /// The push must stop.
    case abort(PushOutcome, reason: String)
}
