/// A property of a child table's items that holds the id of an item of a parent table.
///
/// Push sends no operation of a child while the insert of the parent it references is still queued,
/// waiting out a backoff, or dead, so a backend with a foreign key never sees the child first.
public struct ParentReference: Sendable, Hashable {
    /// The child's property holding the parent's id, as it is named on the wire.
    public var property: String
    /// The parent's table.
    public var table: String

    /// A reference from `property` to the items of `table`.
    public init(property: String, table: String) {
        self.property = property
        self.table = table
    }
}
