import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("JSON serializing")
struct JSONSerializingTests {
    @Test func writesCompactJSONWithKeysSortedByUTF8Bytes() {
        let value: JSONValue = ["b": 1, "a": [true, nil, "x"], "B": 2.5, "é": false, "z": .object([:])]
        #expect(value.jsonString == #"{"B":2.5,"a":[true,null,"x"],"b":1,"z":{},"é":false}"#)
    }

    @Test func writesSameBytesForEqualObjectsRegardlessOfInsertionOrder() {
        var first = JSONObject()
        first["x"] = 1
        first["y"] = 2
        var second = JSONObject()
        second["y"] = 2
        second["x"] = 1
        #expect(first.jsonBytes == second.jsonBytes)
    }

    @Test func writesIntegralDoublesWithAFraction() {
        #expect(JSONValue.double(1).jsonString == "1.0")
        #expect(JSONValue.double(-0.0).jsonString == "-0.0")
        #expect(JSONValue.integer(1).jsonString == "1")
    }

    @Test func writesIntegerExtremes() {
        #expect(JSONValue.integer(.min).jsonString == "-9223372036854775808")
        #expect(JSONValue.integer(.max).jsonString == "9223372036854775807")
        #expect(JSONValue.integer(0).jsonString == "0")
        #expect(JSONValue.integer(-7).jsonString == "-7")
    }

    @Test(arguments: [
        0.1, 1.0 / 3.0, 1e20, 1e-7, 123_456.789, -2.5e-300, Double.greatestFiniteMagnitude,
        Double.leastNonzeroMagnitude, 9_007_199_254_740_992, 0.30000000000000004,
    ])
    func roundTripsDoublesExactly(number: Double) throws {
        let text = JSONValue.double(number).jsonString
        #expect(try JSONValue(parsing: text) == .double(number))
    }

    @Test func writesNonFiniteDoublesAsNull() {
        #expect(
            JSONValue.array([.double(.nan), .double(.infinity), .double(-.infinity)]).jsonString == "[null,null,null]")
    }

    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let value = JSONValue.string("a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{0}/é")
        #expect(value.jsonString == #""a\"b\\c\n\r\t\b\f\u0001\u001f\u0000/é""#)
    }

    @Test func roundTripsEveryStringEscapeAndAstralCharacters() throws {
        let original = JSONValue.string("\u{0}\u{7F}\"\\😀\u{2028}x")
        #expect(try JSONValue(parsing: original.jsonBytes) == original)
    }

    @Test func roundTripsNestedValues() throws {
        let value: JSONValue = [
            "id": "a", "n": [1, 2.5, [nil, ["k": "v"]]], "t": true, "big": .integer(.max), "s": "",
        ]
        #expect(try JSONValue(parsing: value.jsonString) == value)
    }

    @Test func describesValuesAsTheirJSON() {
        let object: JSONObject = ["id": "a", "n": 1]
        #expect(object.description == #"{"id":"a","n":1}"#)
        #expect(JSONValue.string("x").description == #""x""#)
    }
}
