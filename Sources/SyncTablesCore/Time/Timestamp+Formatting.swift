extension Timestamp {
    /// The canonical ISO-8601 text in UTC: 3 fractional digits when the instant is a whole millisecond,
    /// else all 7 (`2001-02-03T04:05:06.789Z`, `2001-02-03T04:05:06.7891234Z`).
    public var iso8601: String {
        let (_, subsecond) = CivilCalendar.split(ticks: ticks)
        let fractionDigits = (subsecond % 10_000 == 0) ? 3 : 7
        return format(ticks: ticks, fractionDigits: fractionDigits)
    }

    /// The ISO-8601 text in UTC with exactly 3 fractional digits, truncating below the millisecond.
    public var iso8601Milliseconds: String {
        format(ticks: ticks, fractionDigits: 3)
    }

    /// The OData literal of this instant: `datetimeoffset'<canonical ISO-8601>'`.
    public var odataLiteral: String { "datetimeoffset'\(iso8601)'" }

    /// This instant rounded to the nearest millisecond (halves away from the past), used when a `Date`,
    /// whose `Double` cannot hold every millisecond exactly, is written with 3 digits.
    var roundedToMilliseconds: Timestamp {
        let (days, ticksOfDay) = CivilCalendar.split(ticks: ticks)
        let rounded = (ticksOfDay + 5_000) / 10_000 * 10_000
        return Timestamp(ticks: days * CivilCalendar.ticksPerDay + rounded)
    }

    private func format(ticks: Int64, fractionDigits: Int) -> String {
        let (days, ticksOfDay) = CivilCalendar.split(ticks: ticks)
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        let secondsOfDay = ticksOfDay / CivilCalendar.ticksPerSecond
        let fraction = ticksOfDay % CivilCalendar.ticksPerSecond
        return String(unsafeUninitializedCapacity: 40) { buffer in
            var index = 0
            func put(_ byte: UInt8) {
                buffer[index] = byte
                index += 1
            }
            func putDigits(_ value: Int64, count: Int) {
                var divisor: Int64 = 1
                for _ in 1..<max(count, 1) { divisor *= 10 }
                var remaining = value
                for _ in 0..<count {
                    put(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: (remaining / divisor) % 10))
                    remaining %= divisor
                    divisor /= 10
                }
            }
            // Years outside 0001–9999 cannot come from parsed text; write them plainly rather than fail.
            if year < 0 { put(UInt8(ascii: "-")) }
            let absoluteYear = year.magnitude
            putDigits(Int64(absoluteYear % 100_000), count: absoluteYear >= 10_000 ? 5 : 4)
            put(UInt8(ascii: "-"))
            putDigits(month, count: 2)
            put(UInt8(ascii: "-"))
            putDigits(day, count: 2)
            put(UInt8(ascii: "T"))
            putDigits(secondsOfDay / 3600, count: 2)
            put(UInt8(ascii: ":"))
            putDigits(secondsOfDay / 60 % 60, count: 2)
            put(UInt8(ascii: ":"))
            putDigits(secondsOfDay % 60, count: 2)
            put(UInt8(ascii: "."))
            if fractionDigits == 3 {
                putDigits(fraction / 10_000, count: 3)
            } else {
                putDigits(fraction, count: 7)
            }
            put(UInt8(ascii: "Z"))
            return index
        }
    }
}

extension Timestamp: CustomStringConvertible {
    /// The canonical ISO-8601 text (``iso8601``).
    public var description: String { iso8601 }
}

extension Timestamp: Codable {
    /// Decodes a timestamp from an ISO-8601 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(iso8601: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the timestamp as its canonical ISO-8601 string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
