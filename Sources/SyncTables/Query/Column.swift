/// A top-level property of the items in a table, the starting point of every typed filter and ordering.
///
/// Comparing a column with a Swift value builds a ``QueryFilter``; `.ascending` and `.descending`
/// build sort keys. Property names are used verbatim (case-sensitive, any characters).
///
/// ```swift
/// let open = try await todos.query()
///     .filter(Column("complete") == false && Column("text").hasPrefix("Buy"))
///     .order(Column("updatedAt").descending, Column("id"))
///     .fetchAll()
/// ```
public struct Column: FilterOperand, SortKeyConvertible {
    /// The property name.
    public let name: String

    /// Creates a column for the property `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a column for the property a coding key names, so a misspelled name does not compile.
    ///
    /// ```swift
    /// struct TodoItem: SyncItem {
    ///     var id: String
    ///     var complete: Bool
    ///     enum CodingKeys: String, CodingKey { case id, complete }
    /// }
    /// let open = try await todos.query().filter(Column(TodoItem.CodingKeys.complete) == false).fetchAll()
    /// ```
    public init(_ key: some CodingKey) {
        self.name = key.stringValue
    }

    /// The property as a node of the filter expression tree.
    public var filterExpression: FilterExpression { .property(name) }

    /// An ascending sort key on this property (`null` and missing values first).
    public var ascending: SortDescriptor { SortDescriptor(name, ascending: true) }

    /// A descending sort key on this property (`null` and missing values last).
    public var descending: SortDescriptor { SortDescriptor(name, ascending: false) }

    /// Sorting by a bare column sorts ascending.
    public var sortDescriptor: SortDescriptor { ascending }
}
