import SyncTables

/// Turns `$filter` and `$orderby` text into the shared query types, mapping parser errors to 400 responses.
enum ODataBridge {
    /// Parses a `$filter` expression.
    static func filter(_ text: String) throws(ServerError) -> FilterExpression {
        throw ServerError(.badRequest, "Invalid $filter '\(text)': filters are not supported yet.")
    }

    /// Parses `$orderby`: a comma list of `member [asc|desc]`.
    static func ordering(_ text: String) throws(ServerError) -> [SortDescriptor] {
        var keys: [SortDescriptor] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = part.split(separator: " ", omittingEmptySubsequences: true)
            guard let name = words.first, words.count <= 2 else {
                throw ServerError(.badRequest, "Invalid $orderby '\(text)'.")
            }
            var ascending = true
            if words.count == 2 {
                switch words[1].lowercased() {
                case "asc": ascending = true
                case "desc": ascending = false
                default: throw ServerError(.badRequest, "Invalid $orderby '\(text)': expected asc or desc.")
                }
            }
            keys.append(SortDescriptor(String(name), ascending: ascending))
        }
        return keys
    }
}
