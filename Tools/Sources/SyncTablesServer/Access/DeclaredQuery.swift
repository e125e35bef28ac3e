import SyncTablesCore

/// Refuses a query on a declared table that names a property the table does not have, in `$filter`,
/// `$orderby` or `$select`, with a 400 that names it (in development mode such a property simply reads as null).
enum DeclaredQuery {
    static func check(_ options: QueryOptions, table: String, declaration: TableDeclaration) throws(ServerError) {
        let known = declaration.propertyNames
        var named: [(String, String)] = []
        if let filter = options.filter {
            named += properties(in: filter).map { ($0, "$filter") }
        }
        named += options.ordering.map { ($0.property, "$orderby") }
        named += (options.select ?? []).map { ($0, "$select") }
        if let (name, option) = named.first(where: { !known.contains($0.0) }) {
            throw ServerError(.badRequest, "Invalid \(option): the table '\(table)' has no property '\(name)'.")
        }
    }

    /// Every property the expression reads.
    static func properties(in expression: FilterExpression) -> [String] {
        switch expression {
        case .property(let name): [name]
        case .value, .timestamp: []
        case .not(let inner), .negate(let inner): properties(in: inner)
        case .and(let left, let right), .or(let left, let right), .comparison(_, let left, let right),
            .arithmetic(_, let left, let right):
            properties(in: left) + properties(in: right)
        case .function(_, let arguments): arguments.flatMap(properties(in:))
        case .isIn(let value, let list): properties(in: value) + list.flatMap(properties(in:))
        }
    }
}
