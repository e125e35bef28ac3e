import Foundation

/// One chapter of an operation's life, for an app's "sync activity" screen: it was pushed, it failed, it was
/// dead-lettered, discarded, or resolved, or it began waiting for its parent's insert.
///
/// Entries are written in the store transaction that records the outcome itself, so the history never
/// shows an outcome that did not happen, nor misses one that did. They are kept within the context's
/// ``OperationHistoryRetention`` (the latest 1,000 by default).
///
/// ```swift
/// for entry in try await context.history(limit: 50) {
///     print(entry.recordedAt, entry.table, entry.itemId, entry.kind, entry.outcome, entry.message ?? "")
/// }
/// ```
public struct OperationHistoryEntry: Sendable, Hashable, Identifiable {
    /// What became of the operation.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The server confirmed it; it left the queue.
        case pushed
        /// The server (or the push) refused this attempt; the operation stays queued.
        case failed
        /// It failed for good, or too often: the sync engine set it aside (see ``DeadOperation``).
        case deadLettered
        /// It was dropped without being sent: by the app, a tool, or a forced purge.
        case discarded
        /// A conflict resolution (a policy's, or the app's) settled it.
        case resolved
        /// A push held it back until its parent's insert is done (see ``ParentHold``; the ``message`` names
        /// the parent). Recorded once when it starts waiting for a parent, not at every push.
        case held
    }

    /// The entry's position in the store's history: later entries have larger numbers.
    public let sequence: Int
    /// The operation's id (see ``PendingOperation/id``).
    public let operationId: String
    /// The operation's table.
    public let table: String
    /// The operation's item id.
    public let itemId: String
    /// Insert, update or delete, as it was when the outcome happened.
    public let kind: OperationKind
    /// What became of it.
    public let outcome: Outcome
    /// The HTTP status of a failure, when the server answered.
    public let status: Int?
    /// What went wrong, for failures and dead-lettered operations; what it waits for, for held ones.
    public let message: String?
    /// How often the operation had been sent when the outcome happened.
    public let attempts: Int
    /// When the outcome happened, by the context's clock.
    public let recordedAt: Date
    /// For a conflict a table's ``SyncRules`` resolved: what met what.
    public let conflict: ConflictKind?
    /// For a conflict a table's ``SyncRules`` resolved: the rule that decided.
    public let conflictRule: ConflictRule?
    /// For a conflict merged per field: what became of each field either side changed ("title: kept
    /// yours"), so an app can answer "where did my edit go?". Empty otherwise.
    public let merge: [FieldMergeStep]

    /// The entry's ``sequence``.
    public var id: Int { sequence }

    /// An entry (entries are made by the context; this is for tests and previews).
    public init(
        sequence: Int, operationId: String, table: String, itemId: String, kind: OperationKind, outcome: Outcome,
        status: Int? = nil, message: String? = nil, attempts: Int, recordedAt: Date, conflict: ConflictKind? = nil,
        conflictRule: ConflictRule? = nil, merge: [FieldMergeStep] = []
    ) {
        self.sequence = sequence
        self.operationId = operationId
        self.table = table
        self.itemId = itemId
        self.kind = kind
        self.outcome = outcome
        self.status = status
        self.message = message
        self.attempts = attempts
        self.recordedAt = recordedAt
        self.conflict = conflict
        self.conflictRule = conflictRule
        self.merge = merge
    }
}
