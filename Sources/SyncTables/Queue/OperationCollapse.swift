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
/// | delete | undo: an update if the delete was never sent, else a recreating insert | reject | reject |
///
/// Updates and deletes keep the ancestor of the operation they collapse into (the oldest one), so a merge
/// compares against the server copy the first local change was based on.
enum OperationCollapse: Equatable {
    /// No operation is queued for the item: append a new one.
    case enqueue
    /// Keep the existing operation (and its position); bump its version.
    case keepExisting
    /// The new delete cancels a never-sent insert: remove the operation, nothing is sent.
    case removeExisting
    /// Turn the existing operation into a delete in place, storing the deleted item.
    case convertToDelete
    /// The item is inserted again while its delete was never sent: the server still has it, so the delete
    /// becomes an update of the server's copy (its ancestor) to the new item.
    case convertToUpdate
    /// The item is inserted again after its delete was sent: the delete becomes an insert that keeps the
    /// delete's ancestor, which marks it as recreating the item (restoring it where the server soft-deletes).
    case convertToRecreate
    /// The combination is not allowed.
    case reject

    /// The outcome of applying `new` to an item whose queued operation is `existing`.
    static func resolve(existing: PendingOperation?, new: OperationKind) -> OperationCollapse {
        guard let existing else { return .enqueue }
        let neverSent = existing.state == .pending && existing.attempts == 0
        switch (existing.kind, new) {
        case (.insert, .update), (.update, .update):
            return .keepExisting
        case (.insert, .delete):
            // A sent insert may have created the item on the server, so a delete must follow it
            // there; a 404 for that delete counts as success.
            return neverSent ? .removeExisting : .convertToDelete
        case (.update, .delete):
            return .convertToDelete
        case (.delete, .insert):
            return neverSent && existing.ancestor != nil ? .convertToUpdate : .convertToRecreate
        case (.insert, .insert), (.update, .insert), (.delete, .update), (.delete, .delete):
            return .reject
        }
    }
}
