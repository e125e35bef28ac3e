/// What a store must know about a table before using it.
///
/// Tables are schemaless: any property an item carries is stored. A definition only names the table
/// and says which properties hold dates (compared and ordered as instants) and which to index.
public struct TableDefinition: Sendable, Hashable {
    /// The table name: a letter or `_`, then letters, digits or `_`, at most 128 characters.
    public var name: String
    /// Properties whose string values are ISO-8601 dates; `createdAt` and `updatedAt` always are.
    public var dateProperties: Set<String>
    /// Indexes to create, each a list of property names.
    public var indexes: [[String]]

    /// Creates a table definition.
    public init(name: String, dateProperties: Set<String> = [], indexes: [[String]] = []) {
        self.name = name
        self.dateProperties = dateProperties.union(["createdAt", "updatedAt"])
        self.indexes = indexes
    }
}
