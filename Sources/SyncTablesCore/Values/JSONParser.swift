/// A strict RFC 8259 reader over UTF-8 bytes.
///
/// It works on a buffer instead of `String` characters for speed, keeps integers apart from doubles,
/// and bounds nesting so hostile input cannot exhaust the stack.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var index = 0
    private var depth = 0
    private var members: [Member] = []

    private struct Member {
        var key: String
        var value: JSONValue
        var offset: Int
    }

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Reads one value that must fill the whole buffer (surrounding whitespace aside).
    mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw .malformed(offset: index, reason: "unexpected data after the JSON value")
        }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw .malformed(offset: index, reason: "expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count {
            guard start + offset < bytes.count else { throw .unexpectedEnd(offset: bytes.count) }
            guard bytes[start + offset] == expected[offset] else {
                throw .malformed(offset: start, reason: "expected a value")
            }
        }
        index = start + count
    }

    private mutating func enterContainer() throws(JSONError) {
        depth += 1
        if depth > maxDepth { throw .tooDeep(offset: index, limit: maxDepth) }
    }

    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        // Members go to a shared stack first so the dictionary is created once at its final size
        // instead of rehashing as it grows.
        let firstMember = members.count
        while true {
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw .malformed(offset: index, reason: "expected a property name in double quotes")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw .malformed(offset: index, reason: "expected ':' after a property name")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(Member(key: key, value: value, offset: keyOffset))
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(JSONObject(try collectMembers(from: firstMember)))
            default:
                throw .malformed(offset: index, reason: "expected ',' or '}' in an object")
            }
        }
    }

    /// Moves the members of the object being closed from the stack into a dictionary.
    private mutating func collectMembers(from first: Int) throws(JSONError) -> [String: JSONValue] {
        var properties = [String: JSONValue](minimumCapacity: members.count - first)
        for member in members[first...] where properties.updateValue(member.value, forKey: member.key) != nil {
            throw .duplicateKey(offset: member.offset, key: member.key)
        }
        members.removeSubrange(first...)
        return properties
    }

    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw .malformed(offset: index, reason: "expected ',' or ']' in an array")
            }
        }
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONError) -> String {
        let quoteOffset = index
        index += 1
        let start = index
        var isASCII = true
        // Fast path: most strings have no escapes and can be decoded straight from the buffer.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = try makeString(
                    UnsafeBufferPointer(rebasing: bytes[start..<index]),
                    isASCII: isASCII,
                    quoteOffset: quoteOffset
                )
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw .malformed(offset: index, reason: "control characters must be escaped in strings")
            }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(index - start + 16)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let string = try buffer.withUnsafeBufferPointer { (text) throws(JSONError) -> String in
                    try makeString(text, isASCII: isASCII, quoteOffset: quoteOffset)
                }
                return string
            case UInt8(ascii: "\\"):
                try appendEscape(to: &buffer, isASCII: &isASCII)
            case 0..<0x20:
                throw .malformed(offset: index, reason: "control characters must be escaped in strings")
            default:
                if byte >= 0x80 { isASCII = false }
                buffer.append(byte)
                index += 1
            }
        }
        throw .unexpectedEnd(offset: index)
    }

    private func makeString(
        _ text: UnsafeBufferPointer<UInt8>,
        isASCII: Bool,
        quoteOffset: Int
    ) throws(JSONError) -> String {
        if isASCII { return String(decoding: text, as: UTF8.self) }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw .invalidUTF8(offset: quoteOffset)
        }
        return string
    }

    private mutating func appendEscape(to buffer: inout [UInt8], isASCII: inout Bool) throws(JSONError) {
        let escapeOffset = index
        index += 1
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try readUnicodeEscape(escapeOffset: escapeOffset)
            if scalar.value >= 0x80 { isASCII = false }
            appendUTF8(scalar, to: &buffer)
        default:
            throw .malformed(offset: escapeOffset, reason: "unknown escape sequence")
        }
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            buffer.append(UInt8(value))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | value >> 6))
            buffer.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | value >> 12))
            buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | value & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | value >> 18))
            buffer.append(UInt8(0x80 | value >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | value & 0x3F))
        }
    }

    /// Reads the hex digits after `\u`, joining a surrogate pair into one scalar.
    private mutating func readUnicodeEscape(escapeOffset: Int) throws(JSONError) -> Unicode.Scalar {
        let first = try readHexQuad()
        switch first {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw .malformed(offset: escapeOffset, reason: "a high surrogate must be followed by a low surrogate")
            }
            index += 2
            let second = try readHexQuad()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw .malformed(offset: escapeOffset, reason: "a high surrogate must be followed by a low surrogate")
            }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else {
                throw .malformed(offset: escapeOffset, reason: "invalid surrogate pair")
            }
            return scalar
        case 0xDC00...0xDFFF:
            throw .malformed(offset: escapeOffset, reason: "a low surrogate without a high surrogate")
        default:
            guard let scalar = Unicode.Scalar(first) else {
                throw .malformed(offset: escapeOffset, reason: "invalid unicode escape")
            }
            return scalar
        }
    }

    private mutating func readHexQuad() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .malformed(offset: index, reason: "expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        guard isDigit(bytes[index]) else { throw .malformed(offset: index, reason: "expected a digit") }
        // Accumulate negatively so Int64.min fits; overflow falls back to a double.
        var accumulator: Int64 = 0
        var overflow = false
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw .malformed(offset: index, reason: "numbers must not have leading zeros")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                let digit = Int64(bytes[index] - UInt8(ascii: "0"))
                if !overflow {
                    let (times10, o1) = accumulator.multipliedReportingOverflow(by: 10)
                    let (next, o2) = times10.subtractingReportingOverflow(digit)
                    if o1 || o2 { overflow = true } else { accumulator = next }
                }
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try readDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try readDigits()
        }
        if isInteger, !overflow {
            if negative { return .integer(accumulator) }
            if accumulator != Int64.min { return .integer(-accumulator) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else { throw .numberOutOfRange(offset: start) }
        return .double(double)
    }

    private mutating func readDigits() throws(JSONError) {
        guard index < bytes.count else { throw .unexpectedEnd(offset: index) }
        guard isDigit(bytes[index]) else { throw .malformed(offset: index, reason: "expected a digit") }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
