/// Why a queued operation is not sent yet: the item it references through a declared parent
/// (``ParentReference``) has an insert in the queue that is not done — not sent yet, failed, waiting out a
/// backoff, dead, or on the wire right now. A backend with a foreign key would refuse the child before it.
///
/// Push passes the operation over and sends it after the parent's insert succeeds (see
/// <doc:ParentsBeforeChildren>).
///
/// ```swift
/// for status in try await context.pendingOperationStatuses() {
///     if let hold = status.parentHold {
///         print(status.operation.itemId, hold)  // "t1 waiting for the insert of TaskList 'l1'"
///     }
/// }
/// ```
public struct ParentHold: Sendable, Hashable, CustomStringConvertible {
    /// The child's property that names the parent.
    public let property: String
    /// The parent's table.
    public let table: String
    /// The parent's id.
    public let itemId: String
    /// The id of the parent's queued insert (a ``PendingOperation/id``).
    public let operationId: String
    /// Where the parent's insert stands; ``OperationState/dead`` holds the child until the parent is retried
    /// or discarded.
    public let parentState: OperationState

    /// "waiting for the insert of TaskList 'l1'", and whether that insert is dead.
    public var description: String {
        "waiting for the insert of \(table) '\(itemId)'" + (parentState == .dead ? ", which is dead" : "")
    }
}
