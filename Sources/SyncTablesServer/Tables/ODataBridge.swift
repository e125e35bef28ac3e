import SyncTables

/// Turns `$filter` and `$orderby` text into the shared query types with the core OData parser, mapping its
/// typed errors (including the length and depth limits) to 400 responses.
enum ODataBridge {
    /// Parses a `$filter` expression.
    static func filter(_ text: String) throws(ServerError) -> FilterExpression {
        do {
            return try ODataFilterParser.parse(text)
        } catch {
            throw ServerError(.badRequest, error.description)
        }
    }

    /// Parses `$orderby`: a comma list of `member [asc|desc]`.
    static func ordering(_ text: String) throws(ServerError) -> [SortDescriptor] {
        do {
            return try ODataOrderBy.parse(text)
        } catch {
            throw ServerError(.badRequest, error.description)
        }
    }
}
