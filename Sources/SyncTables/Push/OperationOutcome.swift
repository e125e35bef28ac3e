@_spi(SyncTablesTools) import SyncTablesCore

/// What becomes of one pushed operation, decided from its answer before anything commits: a batch
/// decides every operation's outcome, then commits them all in one store transaction.
enum OperationOutcome: Sendable {
    /// The server applied it (or already had): the operation leaves the queue and the server's item
    /// (`nil` for deletes) replaces the local row.
    case completed(serverItem: JSONObject?)
    /// It failed: the error is recorded, and a conflict then goes through the conflict policy.
    case failed(OperationFailure)
    /// The server replayed the answer to an earlier attempt of the operation, whose answer was lost and
    /// which the item was edited again after: the server holds that attempt's write (`serverItem`), and the
    /// operation stays queued, based on it, to send the later edits.
    case completedEarlierAttempt(serverItem: JSONObject)
    /// The push must stop; nothing is recorded for this operation.
    case aborted(PushOutcome, reason: String)

    /// The outcome of a successful answer to a write that sent `sent`: completed, unless the server
    /// replayed an earlier attempt whose data differs from what was sent now.
    init(answer: WriteAnswer, sent: JSONObject, kind: OperationKind) {
        if answer.replayed, kind != .delete, let serverItem = answer.item, !ItemComparison.holds(sent, in: serverItem) {
            self = .completedEarlierAttempt(serverItem: serverItem)
        } else {
            self = .completed(serverItem: answer.item)
        }
    }

    /// The outcome of an operation whose request (or batch result) ended in `error`.
    ///
    /// `recognizesEqualData` lets a conflict whose server item holds exactly the sent data count as the
    /// operation's own earlier write; the push turns it off where equal data proves nothing (a counter's
    /// delta: another device may have reached the same total).
    init(operation: PendingOperation, item: JSONObject, error: any Error, recognizesEqualData: Bool = true) {
        switch error {
        case let error as HTTPStatusError:
            self.init(operation: operation, item: item, status: error, recognizesEqualData: recognizesEqualData)
        case let error as TransportError:
            self = .aborted(error.kind == .cancelled ? .cancelled : .abortedNetwork, reason: error.description)
        case is CancellationError:
            self = .aborted(.cancelled, reason: "the task was cancelled")
        case let error as PushAbort:
            self = .aborted(.abortedByHandler, reason: error.reason)
        case let error as StoreError:
            self = .aborted(.abortedStore, reason: String(describing: error))
        case let error as SyncError:
            if case .store = error {
                self = .aborted(.abortedStore, reason: error.description)
            } else {
                self = .failed(OperationFailure(message: error.description, permanent: true))
            }
        case let error as RemoteError:
            var failure = OperationFailure(message: error.description)
            if case .malformedResponse(let code, let raw, _) = error { (failure.status, failure.rawBody) = (code, raw) }
            self = .failed(failure)
        default:
            self = .failed(OperationFailure(message: String(describing: error), permanent: true))
        }
    }

    /// Classifies an HTTP error answer: success in disguise, abort, or a failure to record.
    private init(
        operation: PendingOperation, item: JSONObject, status error: HTTPStatusError, recognizesEqualData: Bool
    ) {
        if error.status == 401 {
            self = .aborted(.abortedAuthentication, reason: error.description)
        } else if operation.kind == .delete, error.status == 404 || error.status == 410 {
            self = .completed(serverItem: nil)  // already gone on the server
        } else if operation.kind != .delete, error.isConflict, let serverItem = error.serverItem,
            recognizesEqualData, !Self.recreates(operation, over: serverItem),
            ItemComparison.sameUserData(serverItem, item)
        {
            // The server already holds exactly our data: the write reached it earlier and only its
            // response was lost (e.g. the app was killed mid-push), so the stale version gives 409/412.
            self = .completed(serverItem: serverItem)
        } else {
            self = .failed(
                OperationFailure(
                    status: error.status, message: error.message, rawBody: error.body, serverItem: error.serverItem,
                    retryAfter: error.retryAfter, isConflict: error.isConflict))
        }
    }
}

extension OperationOutcome {
    /// Whether committing the outcome changes the local row (the server's item or version replaces it).
    var changedLocalRow: Bool {
        switch self {
        case .completed, .completedEarlierAttempt: true
        case .failed, .aborted: false
        }
    }

    /// Whether `operation` recreates an item this device deleted (an insert with an ancestor) and the server
    /// still holds the deletion: equal data in a tombstone is the deleted item, not a lost answer.
    fileprivate static func recreates(_ operation: PendingOperation, over serverItem: JSONObject) -> Bool {
        operation.recreatesItem && serverItem.isTombstone
    }
}

/// A failed operation's error, as it is recorded.
struct OperationFailure: Sendable {
    /// The HTTP status, or `nil` when there was none (say, the local row is missing).
    var status: Int?
    var message: String?
    /// The response body as received, when there was one.
    var rawBody: [UInt8]?
    /// The server's item, sent with a conflict.
    var serverItem: JSONObject?
    /// When the server asked the client to come back (`Retry-After`).
    var retryAfter: Duration?
    /// Whether sending it again can never succeed (the engine dead-letters it at once).
    var permanent = false
    /// Whether the conflict policy gets to resolve it (409, 412).
    var isConflict = false
}
