import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("JSON values")
struct JSONValueTests {
    @Test func literalsBuildTheMatchingCases() {
        let value: JSONValue = [nil, true, 1, 1.5, "s", [1], ["k": 2]]
        #expect(
            value
                == .array([
                    .null, .bool(true), .integer(1), .double(1.5), .string("s"), .array([.integer(1)]),
                    .object(JSONObject(["k": .integer(2)])),
                ])
        )
    }

    @Test func accessorsReturnValuesOnlyForTheirKind() {
        #expect(JSONValue.string("a").stringValue == "a")
        #expect(JSONValue.integer(1).stringValue == nil)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.integer(1).boolValue == nil)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1]).objectValue == ["a": 1])
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.string("").isNull)
    }

    @Test func int64ValueAcceptsIntegralDoublesOnly() {
        #expect(JSONValue.integer(5).int64Value == 5)
        #expect(JSONValue.double(5).int64Value == 5)
        #expect(JSONValue.double(5.5).int64Value == nil)
        #expect(JSONValue.double(1e30).int64Value == nil)
        #expect(JSONValue.string("5").int64Value == nil)
    }

    @Test func doubleValueAcceptsIntegers() {
        #expect(JSONValue.integer(5).doubleValue == 5)
        #expect(JSONValue.double(0.5).doubleValue == 0.5)
        #expect(JSONValue.bool(true).doubleValue == nil)
    }

    @Test func objectIdIsItsIdStringProperty() {
        #expect((["id": "abc"] as JSONObject).id == "abc")
        #expect((["id": 5] as JSONObject).id == "")
        #expect(JSONObject().id == "")
    }

    @Test func objectKeysAreSortedByUTF8Bytes() {
        let object: JSONObject = ["b": 1, "B": 2, "a": 3, "é": 4]
        #expect(object.keys == ["B", "a", "b", "é"])
        #expect(object.count == 4)
    }

    @Test func repeatedLiteralKeysKeepTheLastValue() {
        let object: JSONObject = ["a": 1, "a": 2]
        #expect(object["a"] == 2)
    }
}
