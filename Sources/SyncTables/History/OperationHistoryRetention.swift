/// How much operation history a context keeps: the latest entries up to a count, and only those younger
/// than an age. Older entries are removed in the transaction that adds a new one, so the history never grows
/// beyond the limits and no background work is needed.
///
/// ```swift
/// await context.setHistoryRetention(OperationHistoryRetention(maxEntries: 200, maxAge: .seconds(7 * 86_400)))
/// ```
public struct OperationHistoryRetention: Sendable, Hashable {
    /// The most entries kept (`0` records none); `nil` for no count limit.
    public var maxEntries: Int?
    /// How long an entry is kept; `nil` for no age limit.
    public var maxAge: Duration?

    /// The default: the latest 1,000 entries, whatever their age.
    public static let `default` = OperationHistoryRetention(maxEntries: 1_000)

    /// A retention; negative counts and ages count as zero.
    public init(maxEntries: Int? = 1_000, maxAge: Duration? = nil) {
        self.maxEntries = maxEntries.map { max(0, $0) }
        self.maxAge = maxAge.map { max(.zero, $0) }
    }

    /// Whether entries are recorded at all.
    var recordsEntries: Bool { maxEntries != 0 && maxAge != .zero }
}
