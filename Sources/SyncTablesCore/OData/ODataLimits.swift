/// Bounds on `$filter` and `$orderby` text that keep hostile queries cheap to reject.
///
/// ```swift
/// let strict = ODataLimits(maximumLength: 2048, maximumDepth: 32)
/// let filter = try FilterExpression(odataFilter: text, limits: strict)
/// ```
public struct ODataLimits: Sendable, Hashable {
    /// The longest accepted text, in UTF-8 bytes.
    public var maximumLength: Int
    /// The deepest accepted nesting of parentheses, `not`, `-`, calls and expression nodes.
    public var maximumDepth: Int
    /// The most arguments accepted in one function call (OData v3 functions take at most 3).
    public var maximumFunctionArguments: Int

    /// Creates limits; the defaults suit any filter a client library emits.
    public init(maximumLength: Int = 8192, maximumDepth: Int = 64, maximumFunctionArguments: Int = 8) {
        self.maximumLength = maximumLength
        self.maximumDepth = maximumDepth
        self.maximumFunctionArguments = maximumFunctionArguments
    }
}
