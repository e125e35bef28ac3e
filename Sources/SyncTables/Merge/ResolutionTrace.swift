/// What an automatic conflict resolution did, for the operation history: the kind of conflict, the rule
/// that decided, the merge's steps, and the server copy the operation builds on from now on.
struct ResolutionTrace: Sendable {
    var conflict: ConflictKind
    var rule: ConflictRule
    var steps: [FieldMergeStep] = []
    /// What happened, in one line.
    var message: String
    /// The server copy a kept operation is now based on (its new ancestor), when the resolution knows one
    /// better than the error's server item (a restored item, say).
    var ancestor: JSONObject?
}
