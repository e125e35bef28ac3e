import Foundation

/// The tables a server serves, their properties and their access rules: what `sync-server --tables` reads.
///
/// With declarations, only declared tables exist (others answer 404), only declared properties are accepted,
/// values are checked against their types, and every request is scoped to the rows its caller may see. Without
/// them the server creates tables and properties as clients write them (development mode).
///
/// ```yaml
/// tables:
///   notes:
///     access: owner          # rows belong to the token's subject
///     ownerColumn: userId    # filled in by the server from the token; never taken from the client
///     columns: { text: string, done: bool, rank: number, folderId: string }
///     references: { folderId: folders }   # must name a folder the caller may read
///   folders:
///     access: owner
///     ownerColumn: userId
///     columns: { name: string }
///   announcements:
///     access: read-only      # anyone with a valid token reads; nobody writes through the protocol
///     columns: { title: string }
/// ```
///
/// The full format is in <doc:DeclaredTables>.
public struct TableDeclarations: Sendable, Hashable {
    /// The declared tables by name.
    public var tables: [String: TableDeclaration]

    /// Declares these tables.
    public init(tables: [String: TableDeclaration]) {
        self.tables = tables
    }

    /// Checks what no single table can check alone: every reference names a declared table, from a declared
    /// string column.
    ///
    /// - Throws: ``TableDeclarationError`` naming the table and the reference that is wrong.
    public func validate() throws(TableDeclarationError) {
        for (name, table) in tables.sorted(by: { $0.key < $1.key }) {
            for (column, parent) in table.references.sorted(by: { $0.key < $1.key }) {
                let context = "table '\(name)', reference '\(column)'"
                guard let declared = table.columns[column] else {
                    throw TableDeclarationError("\(context): '\(column)' is not a declared column of '\(name)'")
                }
                guard declared.type == .string else {
                    throw TableDeclarationError(
                        "\(context): '\(column)' holds ids, so it must be declared as string, not \(declared.type.rawValue)"
                    )
                }
                guard tables[parent] != nil else {
                    let known = tables.keys.sorted().joined(separator: ", ")
                    throw TableDeclarationError(
                        "\(context): the parent table '\(parent)' is not declared (declared: \(known))")
                }
            }
        }
    }

    /// Reads declarations from YAML text.
    ///
    /// - Throws: ``TableDeclarationError`` naming the table and property that is wrong, and where.
    public init(yaml: String) throws(TableDeclarationError) {
        self = try TableDeclarationsParser.parse(yaml)
    }

    /// Reads declarations from a YAML file.
    ///
    /// - Throws: ``TableDeclarationError`` when the file cannot be read or is not valid.
    public init(contentsOfFile path: String) throws(TableDeclarationError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw TableDeclarationError("cannot read \(path): \(error.localizedDescription)")
        }
        do {
            try self.init(yaml: text)
        } catch {
            throw TableDeclarationError("\(path): \(error.message)")
        }
    }

    /// The names of the soft-delete tables.
    var softDeleteTables: Set<String> {
        Set(tables.filter { $0.value.softDelete }.keys)
    }
}

/// Why table declarations could not be read: the message names the table, the property and the line.
public struct TableDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates an error with this message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
