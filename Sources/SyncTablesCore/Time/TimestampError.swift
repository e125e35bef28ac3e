/// Why a text is not an ISO-8601 date-time that ``Timestamp`` accepts.
public enum TimestampError: Error, Sendable, Hashable {
    /// The text does not have the shape `YYYY-MM-DDThh:mm:ss[.fffffff](Z|±hh:mm|±hhmm)`.
    case invalidFormat(text: String, reason: String)
    /// The text has the right shape but names no real instant (month 13, February 30, hour 24, …).
    case invalidDate(text: String, reason: String)
}

extension TimestampError: CustomStringConvertible {
    /// A message that quotes the text and says what is wrong.
    public var description: String {
        switch self {
        case .invalidFormat(let text, let reason):
            "\"\(text)\" is not an ISO-8601 date-time (YYYY-MM-DDThh:mm:ss[.fffffff] with Z or ±hh:mm): \(reason)."
        case .invalidDate(let text, let reason):
            "\"\(text)\" is not a valid date-time: \(reason)."
        }
    }
}
