extension Timestamp {
    /// Parses an ISO-8601 date-time: `YYYY-MM-DDThh:mm:ss`, an optional fraction of 1–7 digits
    /// (further digits are accepted and truncated, since ticks are 100 ns), then `Z` or an offset
    /// `±hh:mm` / `±hhmm`. Lowercase `t` and `z` are accepted; the instant must fall in the years
    /// 0001–9999 in UTC.
    ///
    /// ```swift
    /// let t = try Timestamp(iso8601: "2001-02-03T00:03:00+07:00")
    /// t.iso8601  // "2001-02-02T17:03:00.000Z"
    /// ```
    ///
    /// - Throws: ``TimestampError/invalidFormat(text:reason:)`` for text that is not an ISO 8601 date-time,
    ///   ``TimestampError/invalidDate(text:reason:)`` for a date that does not exist or lies outside 0001–9999.
    public init(iso8601 text: String) throws(TimestampError) {
        var copy = text
        let result = copy.withUTF8 { bytes in
            Result { () throws(TimestampError) -> Int64 in try ISO8601Reader(text: text, bytes: bytes).ticks() }
        }
        self.init(ticks: try result.get())
    }

    /// Parses an ISO-8601 date-time like ``init(iso8601:)``, or returns `nil`.
    public init?(parsing text: String) {
        guard let timestamp = try? Timestamp(iso8601: text) else { return nil }
        self = timestamp
    }
}

/// Reads the fixed-position fields of an ISO-8601 date-time.
private struct ISO8601Reader {
    let text: String
    let bytes: UnsafeBufferPointer<UInt8>

    func ticks() throws(TimestampError) -> Int64 {
        guard bytes.count >= 20 else { throw format("too short") }
        let year = try number(at: 0, digits: 4)
        try expect(UInt8(ascii: "-"), at: 4)
        let month = try number(at: 5, digits: 2)
        try expect(UInt8(ascii: "-"), at: 7)
        let day = try number(at: 8, digits: 2)
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else {
            throw format("expected 'T' between date and time")
        }
        let hour = try number(at: 11, digits: 2)
        try expect(UInt8(ascii: ":"), at: 13)
        let minute = try number(at: 14, digits: 2)
        try expect(UInt8(ascii: ":"), at: 16)
        let second = try number(at: 17, digits: 2)

        var index = 19
        var fractionTicks: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digitCount = 0
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                if digitCount < 7 { fractionTicks = fractionTicks * 10 + digit }
                digitCount += 1
                index += 1
            }
            guard digitCount > 0 else { throw format("expected digits after '.'") }
            for _ in min(digitCount, 7)..<7 { fractionTicks *= 10 }
        }
        let offsetSeconds = try zoneOffset(from: index)

        guard year >= 1 else { throw invalid("the year must be between 0001 and 9999") }
        guard (1...12).contains(month) else { throw invalid("the month must be between 01 and 12") }
        guard day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else {
            throw invalid("the day does not exist in that month")
        }
        guard hour <= 23 else { throw invalid("the hour must be between 00 and 23") }
        guard minute <= 59 else { throw invalid("the minute must be between 00 and 59") }
        guard second <= 59 else { throw invalid("the second must be between 00 and 59") }

        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        let ticks = seconds * CivilCalendar.ticksPerSecond + fractionTicks
        // An offset can push an instant past the calendar's ends; keeping UTC inside 0001–9999 means the
        // canonical text of every parsed timestamp parses again.
        guard CivilCalendar.supportedTicks.contains(ticks) else {
            throw invalid("the instant falls outside the years 0001–9999 in UTC")
        }
        return ticks
    }

    /// The zone designator's offset from UTC in seconds; it must end the text.
    private func zoneOffset(from index: Int) throws(TimestampError) -> Int64 {
        guard index < bytes.count else { throw format("expected 'Z' or an offset like +00:00") }
        let sign = bytes[index]
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
            guard index + 1 == bytes.count else { throw format("unexpected text after 'Z'") }
            return 0
        }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            throw format("expected 'Z' or an offset like +00:00")
        }
        let hours: Int64
        let minutes: Int64
        switch bytes.count - index {
        case 6:
            hours = try number(at: index + 1, digits: 2)
            try expect(UInt8(ascii: ":"), at: index + 3)
            minutes = try number(at: index + 4, digits: 2)
        case 5:
            hours = try number(at: index + 1, digits: 2)
            minutes = try number(at: index + 3, digits: 2)
        default:
            throw format("the offset must be ±hh:mm or ±hhmm and end the text")
        }
        guard hours <= 23, minutes <= 59 else { throw invalid("the offset is out of range") }
        let seconds = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    private func number(at start: Int, digits: Int) throws(TimestampError) -> Int64 {
        guard start + digits <= bytes.count else { throw format("too short") }
        var value: Int64 = 0
        for index in start..<(start + digits) {
            guard let digit = digitValue(bytes[index]) else { throw format("expected a digit at position \(index)") }
            value = value * 10 + digit
        }
        return value
    }

    private func expect(_ byte: UInt8, at index: Int) throws(TimestampError) {
        guard index < bytes.count, bytes[index] == byte else {
            throw format("expected '\(Character(Unicode.Scalar(byte)))' at position \(index)")
        }
    }

    private func digitValue(_ byte: UInt8) -> Int64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    private func format(_ reason: String) -> TimestampError { .invalidFormat(text: text, reason: reason) }
    private func invalid(_ reason: String) -> TimestampError { .invalidDate(text: text, reason: reason) }
}
