/// The one place the stores turn values into text and back, and read ISO-8601 instants.
///
/// TEMPORARY SHIM until SyncTablesCore's JSON serializer and `Timestamp(iso8601:)` are merged; then these
/// functions forward to them so every part of SyncTables agrees on the same text and the same dates.
enum StoreCoding {
    /// Canonical JSON text of a value (object keys sorted), used for `_json` and for projected objects/arrays.
    static func canonicalJSONText(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    /// Canonical JSON text of an object.
    static func canonicalJSONText(_ object: JSONObject) -> String {
        canonicalJSONText(.object(object))
    }

    /// Reads an object from the UTF-8 JSON text of a `_json` column.
    static func object(utf8 bytes: UnsafeBufferPointer<UInt8>) throws -> JSONObject {
        try ShimJSONReader.object(utf8: bytes)
    }

    /// Reads an object from JSON text.
    static func object(parsing text: String) throws -> JSONObject {
        var text = text
        return try text.withUTF8 { try object(utf8: $0) }
    }

    /// The 100 ns ticks of an ISO-8601 date-time (`2024-05-01T10:00:00.1234567+02:00`), or `nil` if it is not one.
    static func ticks(iso8601 text: String) -> Int64? {
        ShimISO8601.ticks(text)
    }

    private static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double(let double):
            if double.isFinite, double == double.rounded(), abs(double) < 1e15 {
                output += String(Int64(double)) + ".0"
            } else {
                output += "\(double)"
            }
        case .string(let text): writeString(text, to: &output)
        case .array(let values):
            output += "["
            for (index, element) in values.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            let keys = object.properties.keys.sorted { ProjectedValue.compareUTF8($0, $1) < 0 }
            for (index, key) in keys.enumerated() {
                if index > 0 { output += "," }
                writeString(key, to: &output)
                output += ":"
                write(object.properties[key] ?? .null, to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// Minimal ISO-8601 reader for the shim period (same grammar as the core parser: 0–7 fraction digits,
/// `Z` or `±hh:mm`).
private enum ShimISO8601 {
    static func ticks(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
            index < bytes.count, bytes[index] == 84 || bytes[index] == 116
        else { return nil }
        index += 1
        guard let hour = number(2), expect(58), let minute = number(2), expect(58), let second = number(2)
        else { return nil }
        var fractionTicks = 0
        if expect(46) {
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                guard digits < 7 else { return nil }
                fractionTicks = fractionTicks * 10 + Int(bytes[index] - 48)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<7 { fractionTicks *= 10 }
        }
        var offsetSeconds = 0
        if expect(90) || expect(122) {
        } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
            let sign = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let offsetHours = number(2), expect(58), let offsetMinutes = number(2) else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Int64(seconds) * 10_000_000 + Int64(fractionTicks)
    }
}
