import SyncTablesCore

/// Turns `$filter` and `$orderby` text into the shared query types with the core OData parser, mapping its
/// typed errors (including the length and depth limits) to 400 responses.
enum ODataBridge {
    /// The bounds on `$filter` text: longer than the core default, so a client can list 500 GUID ids
    /// (`id eq '…' or id eq '…' or …`, about 25 KB).
    static let filterLimits = ODataLimits(maximumLength: 64 * 1024)

    /// Parses a `$filter` expression.
    static func filter(_ text: String) throws(ServerError) -> FilterExpression {
        do {
            return try ODataFilterParser.parse(text, limits: filterLimits)
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
