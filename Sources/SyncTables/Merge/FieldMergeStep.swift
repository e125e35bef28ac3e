/// What a three-way merge did with one field: who had changed it since the ancestor and what the merged
/// item holds, in words an app can show ("quantity: 7 + (−2)").
public struct FieldMergeStep: Sendable, Hashable, CustomStringConvertible {
    /// Who changed a field since the ancestor.
    public enum Change: String, Sendable, Hashable, CaseIterable {
        /// Only this device: the merged item keeps the local value.
        case local
        /// Only the server: the merged item takes the server's value.
        case server
        /// Both, to different values: the field's ``FieldMergeRule`` decided.
        case both
    }

    /// The field's name on the wire.
    public let field: String
    /// Who changed it.
    public let change: Change
    /// The rule that decided, for fields both sides changed.
    public let rule: FieldMergeRule?
    /// What the merged item holds, in words: "kept yours", "server's", "7 + (−2)".
    public let summary: String

    /// A step (steps are made by the merge; this is for tests and previews).
    public init(field: String, change: Change, rule: FieldMergeRule? = nil, summary: String) {
        self.field = field
        self.change = change
        self.rule = rule
        self.summary = summary
    }

    /// `field: summary`, e.g. `title: kept yours`.
    public var description: String { "\(field): \(summary)" }
}
