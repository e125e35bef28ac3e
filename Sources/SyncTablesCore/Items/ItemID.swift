import Foundation

/// The rules for item ids, shared by the client, the store and the server.
///
/// ```swift
/// try ItemID.validate("todo-1")      // passes
/// ItemID.isValid("a/b")              // false: '/' is not allowed
/// let id = ItemID.generate()         // "0f8fad5b-d9cb-469f-a165-70867728950e"
/// ```
public enum ItemID {
    /// The longest id, in UTF-16 code units: the way the .NET and Node servers measure string length,
    /// so an id this library accepts is never rejected by a server for its length.
    public static let maximumLength = 255

    /// Checks an id against the protocol's rules and throws the first rule it breaks.
    ///
    /// - Throws: ``ItemIDError``: the first rule `id` breaks.
    public static func validate(_ id: String) throws(ItemIDError) {
        if id.isEmpty { throw .empty }
        if id == "." || id == ".." { throw .reservedName(id) }
        if isPlainASCII(id) { return }
        let length = id.utf16.count
        if length > maximumLength { throw .tooLong(length: length, limit: maximumLength) }
        var onlyWhitespace = true
        for scalar in id.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F:
                throw .controlCharacter(codePoint: scalar.value)
            case 0x22, 0x2B, 0x3F, 0x5C, 0x2F, 0x60:
                throw .forbiddenCharacter(Character(scalar))
            default:
                if !scalar.properties.isWhitespace { onlyWhitespace = false }
            }
        }
        if onlyWhitespace { throw .onlyWhitespace }
    }

    /// `true` for the common id made only of printable ASCII that breaks no rule (a UUID, a slug), checked
    /// on the UTF-8 bytes: the general path asks Unicode properties of every scalar, which showed up in
    /// write profiles.
    private static func isPlainASCII(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { bytes in
            guard bytes.count <= maximumLength else { return false }
            var hasVisible = false
            for byte in bytes {
                switch byte {
                case 0x21, 0x23...0x2A, 0x2C...0x2E, 0x30...0x3E, 0x40...0x5B, 0x5D...0x5F, 0x61...0x7E:
                    hasVisible = true
                case 0x20:
                    continue
                default:
                    return false  // control, forbidden or non-ASCII: the general path decides
                }
            }
            return hasVisible
        }
    }

    /// `true` when ``validate(_:)`` would accept the id.
    public static func isValid(_ id: String) -> Bool {
        do {
            try validate(id)
            return true
        } catch {
            return false
        }
    }

    /// A new random id: a lowercase UUID string.
    public static func generate() -> String {
        // A version-4 UUID from the system's secure generator, read 4 KiB at a time: Foundation's UUID()
        // opened /dev/urandom on every call, and two getrandom calls per id were still 3 % of a batched insert.
        var bytes = RandomBytePool.shared.next128()
        bytes.0 = (bytes.0 & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        bytes.1 = (bytes.1 & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        return uuidString(bytes)
    }

    /// The lowercase UUID spelling (8-4-4-4-12 hexadecimal digits) of 128 bits, the most significant first.
    @_spi(SyncTablesTools) public static func uuidString(_ bytes: (UInt64, UInt64)) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ value: UInt64, nibbles: ClosedRange<Int>) {
                for nibble in nibbles.reversed() {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        buffer[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    buffer[index] = digits[Int((value >> UInt64(nibble * 4)) & 0xF)]
                    index += 1
                }
            }
            put(bytes.0, nibbles: 0...15)
            put(bytes.1, nibbles: 0...15)
            return index
        }
    }
}

/// The item id rule that an id breaks.
public enum ItemIDError: Error, Sendable, Hashable {
    /// The id is the empty string.
    case empty
    /// The id holds only whitespace.
    case onlyWhitespace
    /// The id is longer than the limit (in UTF-16 code units).
    case tooLong(length: Int, limit: Int)
    /// The id holds a control character (U+0000–U+001F or U+007F–U+009F).
    case controlCharacter(codePoint: UInt32)
    /// The id holds one of `"`, `+`, `?`, `\`, `/` or a backtick.
    case forbiddenCharacter(Character)
    /// The id is exactly `.` or `..`.
    case reservedName(String)
}

extension ItemIDError: CustomStringConvertible {
    /// A message that says which rule the id breaks.
    public var description: String {
        switch self {
        case .empty:
            "The item id is empty."
        case .onlyWhitespace:
            "The item id holds only whitespace."
        case .tooLong(let length, let limit):
            "The item id is \(length) UTF-16 code units long; the limit is \(limit)."
        case .controlCharacter(let codePoint):
            "The item id holds the control character U+\(String(codePoint, radix: 16, uppercase: true))."
        case .forbiddenCharacter(let character):
            "The item id holds the character '\(character)', which ids must not contain (\" + ? \\ / `)."
        case .reservedName(let name):
            "The item id must not be exactly '\(name)'."
        }
    }
}
