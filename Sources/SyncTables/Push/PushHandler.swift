/// A hook around each pushed operation and at the end of every push.
///
/// The default sends each operation unchanged. A handler may change the item before sending, answer for
/// the server without sending (return an item, or `nil` for no item), throw to record an error for the
/// operation, or throw ``PushAbort`` to stop the push.
///
/// A push runs with the store's preferred executor, so the handler's synchronous code runs on the store's
/// thread: `await` slow work (a token refresh, a network call) instead of blocking, or local reads and writes
/// wait behind it. The same holds for a ``ConflictPolicy/custom(_:)`` closure.
///
/// ```swift
/// struct Stamping: PushHandler {
///     func execute(_ operation: PushOperation, send: PushOperation.Sender) async throws -> JSONObject? {
///         var stamped = operation
///         stamped.item["device"] = "kiosk-7"
///         return try await send(stamped)
///     }
/// }
/// ```
public protocol PushHandler: Sendable {
    /// Runs one operation; call `send` to send it to the server.
    ///
    /// - Throws: Any error, recorded as the operation's failure (what `send` throws is the server's answer:
    ///   ``HTTPStatusError``, ``TransportError``, ``RemoteError``), or ``PushAbort`` to stop the push.
    func execute(_ operation: PushOperation, send: PushOperation.Sender) async throws -> JSONObject?
    /// Called once when a push ends, whatever its status, before ``SyncContext/push()`` returns or throws.
    func pushCompleted(status: PushOutcome, errors: [TableOperationError]) async
}

extension PushHandler {
    /// Sends the operation unchanged.
    ///
    /// - Throws: What `send` throws: ``HTTPStatusError`` when the server refuses the operation, ``TransportError`` when
    ///   it cannot be reached, ``RemoteError`` when its answer cannot be used.
    public func execute(_ operation: PushOperation, send: PushOperation.Sender) async throws -> JSONObject? {
        try await send(operation)
    }

    /// Does nothing.
    public func pushCompleted(status: PushOutcome, errors: [TableOperationError]) async {}
}

/// One queued operation as a ``PushHandler`` sees it.
public struct PushOperation: Sendable, Hashable {
    /// Sends an operation to the server and returns the server's item (`nil` for deletes).
    public typealias Sender = @Sendable (PushOperation) async throws -> JSONObject?

    /// The operation's id in the queue.
    public let operationId: String
    /// Insert, update or delete.
    public let kind: OperationKind
    /// The table.
    public let table: String
    /// The item's id.
    public let itemId: String
    /// The item that will be sent (for deletes: the item at delete time, whose `version` feeds `If-Match`).
    public var item: JSONObject
    /// The request's key for a server that replays keyed writes: the operation's id and version, so a resend
    /// of this version replays and a changed operation is a new request.
    var idempotencyKey: String? = nil
}
