import Foundation

/// A dead-lettered operation: one that failed permanently, or transiently more often than the engine's
/// ``RetryPolicy/maxAttempts``. Push no longer sends it and it blocks nothing but its children (a dead insert
/// holds the operations of items that reference it, ``heldChildren``), while its item stays out of reach of
/// pulls until it is retried, discarded or reverted.
///
/// ```swift
/// for dead in try await context.deadOperations() {
///     print(dead.table, dead.itemId, dead.error?.status ?? 0, dead.attempts.count)
/// }
/// try await context.retryDeadOperations()                 // all of them, or ids: [dead.operation.id]
/// ```
public struct DeadOperation: Sendable, Identifiable {
    /// One failed attempt to deliver the operation.
    public struct Attempt: Sendable, Hashable {
        /// When it failed.
        public var at: Date
        /// The HTTP status, or `nil` when none came back.
        public var status: Int?
        /// What went wrong.
        public var message: String?

        /// An attempt.
        public init(at: Date, status: Int?, message: String?) {
            self.at = at
            self.status = status
            self.message = message
        }

        var json: JSONValue {
            var object = JSONObject(["at": .string(Timestamp(date: at).iso8601)])
            if let status { object["status"] = .integer(Int64(status)) }
            if let message { object["message"] = .string(message) }
            return .object(object)
        }

        init?(json: JSONValue) {
            guard case .object(let object) = json, case .string(let text)? = object["at"],
                let at = try? Timestamp(iso8601: text)
            else { return nil }
            self.at = at.date
            if case .integer(let status)? = object["status"] { self.status = Int(status) }
            self.message = object["message"]?.stringValue
        }
    }

    /// The queued operation (state ``OperationState/dead``).
    public let operation: PendingOperation
    /// The error recorded for its last attempt, with the client and server items and resolutions.
    public let error: TableOperationError?
    /// Its latest failed attempts, oldest first.
    public let attempts: [Attempt]
    /// For a dead insert, the queued operations held until it is pushed: its children (see ``ParentHold``), in
    /// queue order. Retrying it releases them; discarding it needs
    /// ``SyncContext/discardDeadOperations(ids:includingChildren:)`` with `includingChildren: true`.
    public let heldChildren: [PendingOperation]

    /// The operation's id.
    public var id: String { operation.id }
    /// The operation's table.
    public var table: String { operation.table }
    /// The operation's item id.
    public var itemId: String { operation.itemId }
}
