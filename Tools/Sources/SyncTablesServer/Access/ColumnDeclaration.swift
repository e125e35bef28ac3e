/// One declared property of a table (``TableDeclaration/columns``): its type and whether it must have a value.
public struct ColumnDeclaration: Sendable, Hashable {
    /// The JSON values the property accepts; `null` is accepted unless ``required``.
    public var type: ColumnType
    /// Whether an insert must carry a non-null value and an update may not set `null`.
    public var required: Bool

    /// Declares a property.
    public init(_ type: ColumnType, required: Bool = false) {
        self.type = type
        self.required = required
    }
}

/// The JSON values a declared property accepts.
public enum ColumnType: String, Sendable, Hashable, CaseIterable {
    /// A JSON string.
    case string
    /// `true` or `false`.
    case bool
    /// Any JSON number.
    case number
    /// A JSON number without a fractional part.
    case integer
    /// A string holding an ISO 8601 date-time (`2026-11-28T09:30:00.000Z`).
    case date
    /// A JSON object.
    case object
    /// A JSON array.
    case array
    /// Any JSON value.
    case json
    /// A file attached to the row: `{"sha256": "<64 lowercase hex digits>", "size": <bytes>, "contentType": "…",
    /// "name": "…"}`, the blob's name and size (required) and its content type and original name (optional).
    case attachment
}
