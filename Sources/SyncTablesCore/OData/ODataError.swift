/// Why an OData `$filter` or `$orderby` text could not be read, or a filter could not be written as OData.
///
/// Positions are UTF-8 byte offsets into the (percent-decoded) text, starting at 0.
///
/// ```swift
/// do { _ = try FilterExpression(odataFilter: "text eq") } catch { print(error) }
/// // "Invalid query: expected a value at the end of the text."
/// ```
public enum ODataError: Error, Sendable, Hashable {
    /// The text is longer than the limit (in UTF-8 bytes).
    case tooLong(length: Int, limit: Int)
    /// Parentheses, `not`, `-` or function calls nest deeper than the limit, or the expression tree grows
    /// deeper than it.
    case tooDeep(position: Int, limit: Int)
    /// The text is empty or only whitespace.
    case empty
    /// A character that starts no token (`=`, `&`, `"`, `/`, …).
    case unexpectedCharacter(position: Int, character: String)
    /// A string literal has no closing quote.
    case unterminatedString(position: Int)
    /// A literal is malformed or out of range (an integer beyond 64 bits, a bad date-time or guid, an
    /// unsupported literal type).
    case invalidLiteral(position: Int, text: String, reason: String)
    /// A token appears where it cannot (`expected` says what could have come instead).
    case unexpectedToken(position: Int, found: String, expected: String)
    /// The text ends where more is needed.
    case unexpectedEnd(expected: String)
    /// A call to a function that OData v3 `$filter` does not have (or not in lowercase).
    case unknownFunction(position: Int, name: String)
    /// A function called with the wrong number of arguments.
    case wrongArgumentCount(position: Int, function: String, count: Int, expected: String)
    /// A function call with more arguments than the limit.
    case tooManyArguments(position: Int, limit: Int)
    /// A property name that is not an OData identifier (letters, digits, `_`, not starting with a digit,
    /// not a keyword), so writing it would change the filter's meaning.
    case invalidPropertyName(String)
    /// A value with no OData literal (arrays, objects, NaN, infinity).
    case unrepresentableValue(String)
    /// The filter, or an operand of `and`, `or` or `not`, is not a Boolean expression (`$filter=1`).
    case notBoolean(position: Int)
}

extension ODataError: CustomStringConvertible {
    /// A message that says what is wrong and where.
    public var description: String {
        switch self {
        case .tooLong(let length, let limit):
            "Invalid query: the text is \(length) bytes long; the limit is \(limit)."
        case .tooDeep(let position, let limit):
            "Invalid $filter at position \(position): the expression nests deeper than \(limit) levels."
        case .empty:
            "Invalid query: the text is empty."
        case .unexpectedCharacter(let position, let character):
            "Invalid $filter at position \(position): unexpected character '\(character)'."
        case .unterminatedString(let position):
            "Invalid $filter at position \(position): the string literal has no closing quote."
        case .invalidLiteral(let position, let text, let reason):
            "Invalid $filter at position \(position): \(text) is not a valid literal (\(reason))."
        case .unexpectedToken(let position, let found, let expected):
            "Invalid query at position \(position): expected \(expected) but found \(found)."
        case .unexpectedEnd(let expected):
            "Invalid query: expected \(expected) at the end of the text."
        case .unknownFunction(let position, let name):
            "Invalid $filter at position \(position): '\(name)' is not an OData v3 function (names are lowercase)."
        case .wrongArgumentCount(let position, let function, let count, let expected):
            "Invalid $filter at position \(position): \(function) takes \(expected) argument(s), not \(count)."
        case .tooManyArguments(let position, let limit):
            "Invalid $filter at position \(position): a function call has more than \(limit) arguments."
        case .invalidPropertyName(let name):
            "The property name \"\(name)\" cannot be written in OData (letters, digits and '_' only, not a keyword)."
        case .unrepresentableValue(let what):
            "The value \(what) has no OData literal."
        case .notBoolean(let position):
            "Invalid $filter at position \(position): expected a Boolean expression such as 'done eq true'."
        }
    }
}
