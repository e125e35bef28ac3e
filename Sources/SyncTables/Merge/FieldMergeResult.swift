/// The outcome of a three-way merge of one item (``SyncRules/merge(ancestor:local:server:)``).
public struct FieldMergeResult: Sendable, Hashable {
    /// The merged item: the server's item (its `version` included) with every field merged.
    public var merged: JSONObject
    /// One step per field either side changed, in field-name order.
    public var steps: [FieldMergeStep]
    /// The fields both sides changed whose rule is ``FieldMergeRule/ask``; ``merged`` holds the local value
    /// for them until the app decides.
    public var askedFields: [String]

    /// Whether the merge decided every field by itself (no field asks the app).
    public var isComplete: Bool { askedFields.isEmpty }

    /// The steps as one line: `title: kept yours; quantity: 7 + (−2)`.
    public var summary: String {
        steps.isEmpty ? "nothing to merge" : steps.map(\.description).joined(separator: "; ")
    }
}
