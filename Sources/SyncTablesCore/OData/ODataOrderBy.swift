/// Reads and writes OData `$orderby` text: a comma list of `member [asc|desc]`.
///
/// ```swift
/// let keys = try ODataOrderBy.parse("updatedAt desc, id")   // [updatedAt descending, id ascending]
/// try ODataOrderBy.text(for: keys)                          // "updatedAt desc,id"
/// ```
public enum ODataOrderBy {
    /// Parses `$orderby` text; `asc` is the default direction. Directions are lowercase, as in OData.
    ///
    /// - Throws: ``ODataError`` for text that is not a valid `$orderby` or goes beyond `limits`.
    public static func parse(_ text: String, limits: ODataLimits = ODataLimits()) throws(ODataError) -> [SortDescriptor]
    {
        let length = text.utf8.count
        guard length <= limits.maximumLength else { throw .tooLong(length: length, limit: limits.maximumLength) }
        var tokenizer = ODataTokenizer(text)
        let tokens = try tokenizer.tokenize()
        guard tokens.first?.kind != .end else { throw .empty }
        var descriptors: [SortDescriptor] = []
        var index = 0
        while true {
            guard case .identifier(let name) = tokens[index].kind else {
                throw unexpected(tokens[index], expected: "a property name")
            }
            index += 1
            var ascending = true
            if case .identifier(let direction) = tokens[index].kind {
                switch direction {
                case "asc": ascending = true
                case "desc": ascending = false
                default: throw unexpected(tokens[index], expected: "'asc', 'desc' or ','")
                }
                index += 1
            }
            descriptors.append(SortDescriptor(name, ascending: ascending))
            switch tokens[index].kind {
            case .end: return descriptors
            case .comma: index += 1
            default: throw unexpected(tokens[index], expected: "'asc', 'desc' or ','")
            }
        }
    }

    /// Writes sort keys as `$orderby` text (`asc` omitted, as .NET clients do), rejecting names that are
    /// not OData identifiers.
    ///
    /// - Throws: ``ODataError`` for a name that is not an OData identifier.
    public static func text(for descriptors: [SortDescriptor]) throws(ODataError) -> String {
        var parts: [String] = []
        parts.reserveCapacity(descriptors.count)
        for descriptor in descriptors {
            guard ODataFilterWriter.isIdentifier(descriptor.property) else {
                throw .invalidPropertyName(descriptor.property)
            }
            parts.append(descriptor.ascending ? descriptor.property : descriptor.property + " desc")
        }
        return parts.joined(separator: ",")
    }

    private static func unexpected(_ token: ODataToken, expected: String) -> ODataError {
        if token.kind == .end { return .unexpectedEnd(expected: expected) }
        return .unexpectedToken(position: token.position, found: token.displayText, expected: expected)
    }
}
