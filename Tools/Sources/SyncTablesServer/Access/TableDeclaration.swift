/// One table a server with declared tables serves: its access rule and its properties.
///
/// Besides ``columns``, rows always have `id` and the system properties (`version`, `createdAt`, `updatedAt`,
/// `deleted`), and the column an ``AccessRule/owner(column:)`` or ``AccessRule/claim(_:column:)`` rule
/// stamps. A write naming any other property is refused with 400.
public struct TableDeclaration: Sendable, Hashable {
    /// Who may read and write the rows.
    public var access: AccessRule
    /// The properties clients may write, by name.
    public var columns: [String: ColumnDeclaration]
    /// Whether deletes mark rows `deleted` instead of removing them (added to the server's soft-delete policy).
    public var softDelete: Bool
    /// The string columns that hold the id of a row of another declared table (or of this one), each with that
    /// table's name: a foreign-key check. An insert or update that sets such a column to an id naming no row
    /// the caller may read there (none, soft-deleted, or outside the caller's scope) is refused with 422.
    public var references: [String: String]

    /// Declares a table.
    public init(
        access: AccessRule, columns: [String: ColumnDeclaration], softDelete: Bool = false,
        references: [String: String] = [:]
    ) {
        self.access = access
        self.columns = columns
        self.softDelete = softDelete
        self.references = references
    }

    /// Every property name a row of the table may have: the columns, the stamped column, `id` and the system
    /// properties.
    var propertyNames: Set<String> {
        var names = Set(columns.keys).union(TableProperties.alwaysPresent)
        if let stamped = access.stampedColumn { names.insert(stamped) }
        return names
    }
}
