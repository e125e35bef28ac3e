import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #" {"a": [null, true, false, 1, -2.5, "x"], "b": {}} "#)
        #expect(value == ["a": [nil, true, false, 1, -2.5, "x"], "b": .object([:])])
    }

    @Test func keepsIntegersApartFromDoubles() throws {
        #expect(try JSONValue(parsing: "42") == .integer(42))
        #expect(try JSONValue(parsing: "42.0") == .double(42))
        #expect(try JSONValue(parsing: "4e1") == .double(40))
        #expect(try JSONValue(parsing: "-0") == .integer(0))
        #expect(try JSONValue(parsing: "-0.0") == .double(-0.0))
    }

    @Test func parsesTheExtremesOfInt64AsIntegers() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .integer(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .integer(.min))
    }

    @Test func parsesIntegersBeyondInt64AsDoubles() throws {
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue(parsing: "-9223372036854775809") == .double(-9_223_372_036_854_775_808.0))
        #expect(try JSONValue(parsing: "123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func parsesDoublesExactly() throws {
        #expect(try JSONValue(parsing: "0.1") == .double(0.1))
        #expect(try JSONValue(parsing: "1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try JSONValue(parsing: "5e-324") == .double(.leastNonzeroMagnitude))
        #expect(try JSONValue(parsing: "1E+2") == .double(100))
    }

    @Test func decodesEveryStringEscape() throws {
        let value = try JSONValue(parsing: #""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC""#)
        #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\tAé€"))
    }

    @Test func keepsEscapedNulCharacters() throws {
        let value = try JSONValue(parsing: #""a\u0000b""#)
        #expect(value.stringValue?.unicodeScalars.map(\.value) == [0x61, 0, 0x62])
    }

    @Test func joinsSurrogatePairs() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
    }

    @Test func readsRawUTF8Text() throws {
        #expect(try JSONValue(parsing: #"{"名前":"😀 ü"}"#) == ["名前": "😀 ü"])
    }

    @Test func parsesFromBytes() throws {
        let bytes: [UInt8] = Array(#"{"id":"a"}"#.utf8)
        #expect(try JSONValue(parsing: bytes) == ["id": "a"])
        #expect(try JSONValue(parsing: bytes[...]) == ["id": "a"])
        #expect(try JSONObject(parsing: bytes).id == "a")
    }

    @Test func parsesFromDataAndRawBuffers() throws {
        let data = Data(#"{"id":"a"}"#.utf8)
        #expect(try JSONValue(parsing: data) == ["id": "a"])
        let value = try data.withUnsafeBytes { buffer in try JSONValue(parsing: buffer) }
        #expect(value == ["id": "a"])
    }

    @Test func rejectsInvalidUTF8WithTheStringOffset() {
        let bytes: [UInt8] = [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]
        #expect(throws: JSONError.invalidUTF8(offset: 1)) { try JSONValue(parsing: bytes) }
    }

    @Test func objectParsingRejectsOtherValues() {
        #expect(throws: JSONError.notAnObject) { try JSONObject(parsing: "[1]") }
        #expect(throws: JSONError.notAnObject) { try JSONObject(parsing: "\"x\"") }
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue(parsing: text).arrayValue != nil)
    }

    @Test func rejectsNestingBeyondTheLimit() {
        let text = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONError.tooDeep(offset: 512, limit: 512)) { try JSONValue(parsing: text) }
    }

    @Test func rejectsVeryDeepHostileInputWithoutCrashing() {
        let text = String(repeating: #"{"a":["#, count: 100_000)
        #expect(throws: JSONError.tooDeep(offset: 1536, limit: 512)) { try JSONValue(parsing: text) }
    }

    @Test func honoursACustomDepthLimit() {
        #expect(throws: JSONError.tooDeep(offset: 2, limit: 2)) { try JSONValue(parsing: "[[[]]]", maximumDepth: 2) }
    }

    @Test func rejectsDuplicateKeys() {
        #expect(throws: JSONError.duplicateKey(offset: 8, key: "a")) { try JSONValue(parsing: #"{"a":1, "a":2}"#) }
    }

    @Test func rejectsNumbersTooLargeForADouble() {
        #expect(throws: JSONError.numberOutOfRange(offset: 1)) { try JSONValue(parsing: "[1e999]") }
    }

    @Test(arguments: [
        ("", JSONError.unexpectedEnd(offset: 0)),
        ("   ", .unexpectedEnd(offset: 3)),
        ("[1,]", .malformed(offset: 3, reason: "expected a value")),
        ("[1 2]", .malformed(offset: 3, reason: "expected ',' or ']' in an array")),
        ("{\"a\" 1}", .malformed(offset: 5, reason: "expected ':' after a property name")),
        ("{\"a\":1,}", .malformed(offset: 7, reason: "expected a property name in double quotes")),
        ("{a:1}", .malformed(offset: 1, reason: "expected a property name in double quotes")),
        ("{\"a\":1 \"b\":2}", .malformed(offset: 7, reason: "expected ',' or '}' in an object")),
        ("[1", .unexpectedEnd(offset: 2)),
        ("{\"a\":1", .unexpectedEnd(offset: 6)),
        ("\"abc", .unexpectedEnd(offset: 4)),
        ("\"a\\", .unexpectedEnd(offset: 3)),
        ("tru", .unexpectedEnd(offset: 3)),
        ("nul", .unexpectedEnd(offset: 3)),
        ("True", .malformed(offset: 0, reason: "expected a value")),
        ("nulL", .malformed(offset: 0, reason: "expected a value")),
        ("NaN", .malformed(offset: 0, reason: "expected a value")),
        ("Infinity", .malformed(offset: 0, reason: "expected a value")),
        ("'a'", .malformed(offset: 0, reason: "expected a value")),
        ("01", .malformed(offset: 1, reason: "numbers must not have leading zeros")),
        ("-", .unexpectedEnd(offset: 1)),
        ("-a", .malformed(offset: 1, reason: "expected a digit")),
        ("1.", .unexpectedEnd(offset: 2)),
        ("1.e3", .malformed(offset: 2, reason: "expected a digit")),
        (".5", .malformed(offset: 0, reason: "expected a value")),
        ("+1", .malformed(offset: 0, reason: "expected a value")),
        ("1e", .unexpectedEnd(offset: 2)),
        ("1e+", .unexpectedEnd(offset: 3)),
        ("0x10", .malformed(offset: 1, reason: "unexpected data after the JSON value")),
        ("1 2", .malformed(offset: 2, reason: "unexpected data after the JSON value")),
        ("{} x", .malformed(offset: 3, reason: "unexpected data after the JSON value")),
        ("\"a\tb\"", .malformed(offset: 2, reason: "control characters must be escaped in strings")),
        ("\"a\\qb\"", .malformed(offset: 2, reason: "unknown escape sequence")),
        ("\"\\u12\"", .malformed(offset: 5, reason: "expected four hex digits after \\u")),
        ("\"\\u12G4\"", .malformed(offset: 5, reason: "expected four hex digits after \\u")),
        ("\"\\ud83d\"", .malformed(offset: 1, reason: "a high surrogate must be followed by a low surrogate")),
        ("\"\\ud83dx\"", .malformed(offset: 1, reason: "a high surrogate must be followed by a low surrogate")),
        ("\"\\ud83d\\u0041\"", .malformed(offset: 1, reason: "a high surrogate must be followed by a low surrogate")),
        ("\"\\ude00\"", .malformed(offset: 1, reason: "a low surrogate without a high surrogate")),
        ("/* c */ 1", .malformed(offset: 0, reason: "expected a value")),
    ])
    func rejectsMalformedText(text: String, expected: JSONError) {
        #expect(throws: expected) { try JSONValue(parsing: text) }
    }

    @Test func describesErrorsWithTheirOffset() {
        let error = JSONError.malformed(offset: 3, reason: "expected a value")
        #expect(error.description == "Malformed JSON at byte 3: expected a value.")
        #expect(JSONError.notAnObject.description == "The JSON value is not an object.")
    }
}
