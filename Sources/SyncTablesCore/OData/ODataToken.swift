/// One token of `$filter` / `$orderby` text.
struct ODataToken: Equatable {
    enum Kind: Equatable {
        /// A name: a member, a keyword (`and`, `eq`, `null`, …) or a function name.
        case identifier(String)
        /// A quoted string, with `''` already turned into `'`.
        case string(String)
        /// A prefixed literal such as `datetime'…'` or `guid'…'`: the prefix and the quoted content.
        case typedLiteral(prefix: String, content: String)
        /// A number as written (digits, fraction, exponent and suffix), without sign.
        case number(String)
        case openParenthesis
        case closeParenthesis
        case comma
        case minus
        case end
    }

    var kind: Kind
    /// The UTF-8 byte offset where the token starts.
    var position: Int
    /// The UTF-8 byte offset just past the token.
    var endPosition: Int

    /// The token as it would appear in an error message.
    var displayText: String {
        switch kind {
        case .identifier(let name): "'\(name)'"
        case .string(let text): "the string '\(text)'"
        case .typedLiteral(let prefix, _): "a \(prefix) literal"
        case .number(let text): "the number \(text)"
        case .openParenthesis: "'('"
        case .closeParenthesis: "')'"
        case .comma: "','"
        case .minus: "'-'"
        case .end: "the end of the text"
        }
    }
}
