import Foundation

/// A Swift value that can stand on the right of a ``Column`` comparison.
///
/// Strings, integers, doubles, booleans, `Date`s, `JSONValue`s and `Timestamp`s conform, as do
/// optionals of them (`nil` compares as JSON `null`) and column-like operands themselves.
///
/// ```swift
/// Column("priority") >= 2
/// Column("due") < Date()
/// ```
public protocol FilterValueConvertible: Sendable {
    /// The value as a node of the filter expression tree.
    var filterExpression: FilterExpression { get }
}

extension String: FilterValueConvertible {
    /// The string as a JSON string constant.
    public var filterExpression: FilterExpression { .value(.string(self)) }
}

extension Int: FilterValueConvertible {
    /// The integer as a JSON integer constant.
    public var filterExpression: FilterExpression { .value(.integer(Int64(self))) }
}

extension Int64: FilterValueConvertible {
    /// The integer as a JSON integer constant.
    public var filterExpression: FilterExpression { .value(.integer(self)) }
}

extension Int32: FilterValueConvertible {
    /// The integer as a JSON integer constant.
    public var filterExpression: FilterExpression { .value(.integer(Int64(self))) }
}

extension Double: FilterValueConvertible {
    /// The number as a JSON number constant.
    public var filterExpression: FilterExpression { .value(.double(self)) }
}

extension Bool: FilterValueConvertible {
    /// The boolean as a JSON boolean constant.
    public var filterExpression: FilterExpression { .value(.bool(self)) }
}

extension JSONValue: FilterValueConvertible {
    /// The value itself as a constant.
    public var filterExpression: FilterExpression { .value(self) }
}

extension Timestamp: FilterValueConvertible {
    /// The instant as a date-time constant, compared as an instant.
    public var filterExpression: FilterExpression { .timestamp(self) }
}

extension Date: FilterValueConvertible {
    /// The date as a date-time constant, compared as an instant.
    ///
    /// Dates are stored with millisecond precision, so the constant is rounded to the nearest millisecond
    /// the same way an item's `Date` property is when it is encoded; `Column("due") == item.due` then matches.
    public var filterExpression: FilterExpression { .timestamp(Timestamp(millisecondPrecision: self)) }
}

extension Optional: FilterValueConvertible where Wrapped: FilterValueConvertible {
    /// The wrapped value, or JSON `null` for `nil`.
    public var filterExpression: FilterExpression {
        switch self {
        case .some(let value): value.filterExpression
        case .none: .value(.null)
        }
    }
}

extension Timestamp {
    /// The instant of a `Date`, rounded to the nearest millisecond exactly as `JSONValueEncoder` rounds
    /// `Date` properties, so a filter on a date matches the stored copy of that same date.
    init(millisecondPrecision date: Date) {
        let ticks = Timestamp(date: date).ticks + 5_000
        // Floor division keeps dates before 1970 rounding the same way as later ones.
        let milliseconds = ticks >= 0 ? ticks / 10_000 : -((-ticks + 9_999) / 10_000)
        self.init(ticks: milliseconds * 10_000)
    }
}
