/// Writes compact, canonical JSON into a byte buffer: object keys sorted by UTF-8 bytes, no whitespace.
///
/// Doubles use Swift's shortest round-trip text (`1.0`, `0.1`, `1e+20`), so parsing the output gives back
/// the same bits. JSON has no NaN or infinity: such doubles are written as `null` (parsed input never
/// holds them; only values built in code can).
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeASCII("null")
        case .bool(let bool): writeASCII(bool ? "true" : "false")
        case .integer(let integer): write(integer)
        case .double(let double): write(double)
        case .string(let string): write(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            write(object)
        }
    }

    mutating func write(_ object: JSONObject) {
        writeMembers(Array(object.properties))
    }

    /// Writes `object` without the members `omit` picks (only at this level; nested objects are whole).
    mutating func write(_ object: JSONObject, omitting omit: (String, JSONValue) -> Bool) {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(object.count)
        for member in object.properties where !omit(member.key, member.value) { members.append(member) }
        writeMembers(members)
    }

    private mutating func writeMembers(_ members: [(key: String, value: JSONValue)]) {
        var members = members
        members.sort { JSONObject.utf8Precedes($0.key, $1.key) }
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in members {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            write(key)
            bytes.append(UInt8(ascii: ":"))
            write(value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeASCII(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func write(_ integer: Int64) {
        if integer == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        // Work with the magnitude so Int64.min needs no special case.
        var magnitude = integer.magnitude
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            while magnitude > 0 {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                bytes.append(digits[count])
            }
        }
    }

    private mutating func write(_ double: Double) {
        guard double.isFinite else {
            writeASCII("null")
            return
        }
        bytes.append(contentsOf: double.description.utf8)
    }

    private mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { text in
            var runStart = 0
            for index in 0..<text.count {
                let byte = text[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
                appendEscaped(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<text.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}

extension JSONValue {
    /// The value as compact, canonical JSON bytes (UTF-8, object keys sorted by their UTF-8 bytes).
    ///
    /// NaN and infinite doubles, which JSON cannot express, are written as `null`.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }

    /// The value as compact, canonical JSON text; see ``jsonBytes``.
    ///
    /// ```swift
    /// JSONValue.object(["b": 1, "a": [true, nil]]).jsonString  // {"a":[true,null],"b":1}
    /// ```
    public var jsonString: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }
}

extension JSONObject {
    /// The object as compact, canonical JSON bytes; see ``JSONValue/jsonBytes``.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }

    /// ``jsonBytes`` without the properties `omit` picks (nested objects are written whole).
    @_spi(SyncTablesTools) public func jsonBytes(omitting omit: (String, JSONValue) -> Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.write(self, omitting: omit)
        return writer.bytes
    }

    /// The object as compact, canonical JSON text; see ``JSONValue/jsonBytes``.
    public var jsonString: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }
}
