/// Something that can be a key of `SyncQuery.order(_:)`: a ``Column`` (ascending) or a `SortDescriptor`.
///
/// ```swift
/// query.order(Column("priority").descending, Column("text"))
/// ```
public protocol SortKeyConvertible: Sendable {
    /// The key as a store sort descriptor.
    var sortDescriptor: SortDescriptor { get }
}

extension SortDescriptor: SortKeyConvertible {
    /// The descriptor itself.
    public var sortDescriptor: SortDescriptor { self }
}
