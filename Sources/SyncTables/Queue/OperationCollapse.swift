/// How a new local action combines with the operation already queued for the same item.
///
/// "Keep" leaves the existing operation at its queue position (its edit version goes up); the local row
/// still receives the new data. Every rejected combination leaves the row and the queue untouched.
///
/// | existing \ new | insert | update | delete |
/// |---|---|---|---|
/// | none | enqueue | enqueue | enqueue |
/// | insert | reject | keep | remove both; if the insert was ever sent, convert it to a delete |
/// | update | reject | keep | convert to a delete in place |
/// | delete | reject | reject | reject |
enum OperationCollapse: Equatable {
    /// No operation is queued for the item: append a new one.
    case enqueue
    /// Keep the existing operation (and its position); bump its version.
    case keepExisting
    /// The new delete cancels a never-sent insert: remove the operation, nothing is sent.
    case removeExisting
    /// Turn the existing operation into a delete in place, storing the deleted item.
    case convertToDelete
    /// The combination is not allowed.
    case reject

    /// The outcome of applying `new` to an item whose queued operation is `existing`.
    static func resolve(existing: PendingOperation?, new: OperationKind) -> OperationCollapse {
        guard let existing else { return .enqueue }
        switch (existing.kind, new) {
        case (.insert, .update), (.update, .update):
            return .keepExisting
        case (.insert, .delete):
            // A sent insert may have created the item on the server, so a delete must follow it
            // there; a 404 for that delete counts as success.
            let neverSent = existing.state == .pending && existing.attempts == 0
            return neverSent ? .removeExisting : .convertToDelete
        case (.update, .delete):
            return .convertToDelete
        case (.insert, .insert), (.update, .insert), (.delete, _):
            return .reject
        }
    }
}
