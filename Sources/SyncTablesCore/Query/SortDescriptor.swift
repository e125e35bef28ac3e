/// One key of an ordering: a top-level property and a direction.
public struct SortDescriptor: Sendable, Hashable {
    /// The property to order by.
    public var property: String
    /// `true` for ascending order.
    public var ascending: Bool

    /// Creates a sort key.
    public init(_ property: String, ascending: Bool = true) {
        self.property = property
        self.ascending = ascending
    }
}
