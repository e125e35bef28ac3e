/// What a pull did.
public struct PullSummary: Sendable, Hashable {
    /// Distinct records received from the server. An incremental pull asks again for the records stamped
    /// exactly at its token; those the store already holds are neither counted nor written again, so a pull
    /// with no server change receives 0 and wakes no observer.
    public var received: Int = 0
    /// Rows inserted or replaced locally.
    public var upserted: Int = 0
    /// Rows deleted locally because the server marked them deleted.
    public var deleted: Int = 0
    /// Records ignored because the item has a pending local operation (the local change wins until pushed).
    public var skippedPending: Int = 0
    /// Records merged into a pending local update (in a table whose ``SyncRules`` merge fields): the update
    /// now builds on the server's copy, and the row shows both sides' changes.
    public var merged: Int = 0
    /// Records ignored because they had no valid string id.
    public var skippedInvalid: Int = 0
    /// Pages requested, the final empty one included.
    public var requests: Int = 0
    /// The incremental token after the pull (`nil` for a full pull).
    public var deltaToken: Timestamp?

    /// Creates an empty summary.
    public init() {}
}
