/// Why JSON text could not be read: each case carries the byte offset where reading stopped.
///
/// ```swift
/// do { _ = try JSONValue(parsing: "[1,]") } catch { print(error) }  // "Malformed JSON at byte 3: ..."
/// ```
public enum JSONError: Error, Sendable, Hashable {
    /// The text is not JSON at the given byte offset.
    case malformed(offset: Int, reason: String)
    /// The text ended inside a value.
    case unexpectedEnd(offset: Int)
    /// A string holds bytes that are not valid UTF-8 (the offset is the string's opening quote).
    case invalidUTF8(offset: Int)
    /// A number is too large for a double (for example `1e999`).
    case numberOutOfRange(offset: Int)
    /// An object names the same property twice; strict parsing rejects it because readers disagree
    /// on which value wins.
    case duplicateKey(offset: Int, key: String)
    /// Arrays and objects nest deeper than the limit.
    case tooDeep(offset: Int, limit: Int)
    /// The text is valid JSON but not an object where an object is required.
    case notAnObject
}

extension JSONError: CustomStringConvertible {
    /// A message that says what is wrong and where.
    public var description: String {
        switch self {
        case .malformed(let offset, let reason):
            "Malformed JSON at byte \(offset): \(reason)."
        case .unexpectedEnd(let offset):
            "Malformed JSON: the text ends unexpectedly at byte \(offset)."
        case .invalidUTF8(let offset):
            "Malformed JSON: the string starting at byte \(offset) is not valid UTF-8."
        case .numberOutOfRange(let offset):
            "Malformed JSON at byte \(offset): the number is too large to represent."
        case .duplicateKey(let offset, let key):
            "Malformed JSON at byte \(offset): the property \"\(key)\" appears twice in one object."
        case .tooDeep(let offset, let limit):
            "Malformed JSON at byte \(offset): arrays and objects nest deeper than \(limit) levels."
        case .notAnObject:
            "The JSON value is not an object."
        }
    }
}
