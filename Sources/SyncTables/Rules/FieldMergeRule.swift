/// What a three-way merge does with a field that both this device and the server changed since the
/// ancestor (the server copy the local change was based on).
///
/// A field changed on one side only never needs a rule: a local-only change keeps the local value, a
/// server-only change takes the server's. Declare rules with ``SyncRules/Declaration/merge(_:_:)``.
public enum FieldMergeRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The value of the write the server receives last wins. The local change reaches the server after the
    /// server's (it is being pushed now), so the merging device keeps its own value, and every other device
    /// then pulls it: server order decides, never a device's clock. The default for fields without a rule.
    case lastWriter
    /// The server's value.
    case serverWins
    /// The local value, even when the server's change is the later one in every other sense.
    case clientWins
    /// A number both sides changed by an amount: server + local − ancestor, so no increment or decrement is
    /// lost. A field that is not a number on every side falls back to ``lastWriter``.
    case counter
    /// An array treated as a set: the server's elements, minus those the local side removed, plus those it
    /// added. A field that is not an array on every side falls back to ``lastWriter``.
    case union
    /// Stop and ask the app: the conflict is left to the ``ConflictPolicy`` (``ConflictPolicy/custom(_:)`` sees
    /// the merge so far in ``TableOperationError/merged(with:)``; ``ConflictPolicy/manual`` records the error).
    case ask

    /// The rule's name, e.g. `counter`.
    public var description: String { rawValue }
}
