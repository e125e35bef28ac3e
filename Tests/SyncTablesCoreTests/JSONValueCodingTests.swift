import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

private struct Todo: Codable, Equatable {
    var id: String
    var text: String
    var complete: Bool
    var priority: Int
    var ratio: Double
    var note: String?
    var dueAt: Date?
    var createdAt: Date
    var tags: [String]
}

private struct Everything: Codable, Equatable {
    var int8: Int8
    var uint64: UInt64
    var float: Float
    var data: Data
    var url: URL
    var uuid: UUID
    var decimal: Decimal
    var nested: [String: [Int]]
    var json: JSONValue
    var object: JSONObject
    var timestamp: Timestamp
}

private struct ExplicitNull: Encodable {
    var note: String?
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeNil(forKey: .note)
    }
    enum CodingKeys: CodingKey { case note }
}

private struct Nested: Codable, Equatable {
    var inner: Inner
    struct Inner: Codable, Equatable { var count: Int }
}

private let sampleDate = Date(timeIntervalSinceReferenceDate: 736_250_400.125)

private func sampleTodo() -> Todo {
    Todo(
        id: "a", text: "Buy milk", complete: false, priority: 2, ratio: 0.25, note: nil, dueAt: sampleDate,
        createdAt: Date(timeIntervalSince1970: 0), tags: ["x", "y"]
    )
}

@Suite("Codable bridging")
struct JSONValueCodingTests {
    @Test func encodesAStructIntoAnObject() throws {
        let value = try JSONValueEncoder().encode(sampleTodo())
        #expect(
            value == [
                "id": "a", "text": "Buy milk", "complete": false, "priority": 2, "ratio": 0.25,
                "dueAt": "2024-05-01T10:00:00.125Z", "createdAt": "1970-01-01T00:00:00.000Z", "tags": ["x", "y"],
            ]
        )
    }

    @Test func leavesOutNilOptionals() throws {
        let value = try JSONValueEncoder().encode(sampleTodo())
        #expect(value.objectValue?["note"] == nil)
    }

    @Test func writesNullForAnExplicitEncodeNil() throws {
        #expect(try JSONValueEncoder().encode(ExplicitNull()) == ["note": nil])
    }

    @Test func roundTripsAStruct() throws {
        let todo = sampleTodo()
        let value = try JSONValueEncoder().encode(todo)
        #expect(try JSONValueDecoder().decode(Todo.self, from: value) == todo)
    }

    @Test func reportsTopLevelDateKeys() throws {
        let (_, dateKeys) = try JSONValueEncoder().encodeWithDateKeys(sampleTodo())
        #expect(dateKeys == ["dueAt", "createdAt"])
    }

    @Test func reportsTimestampPropertiesAsDateKeysButNotNestedDates() throws {
        struct Event: Encodable {
            var at: Timestamp
            var inner: [String: Date]
            var missing: Date?
        }
        let event = Event(at: .epoch, inner: ["when": Date(timeIntervalSince1970: 0)], missing: nil)
        let (_, dateKeys) = try JSONValueEncoder().encodeWithDateKeys(event)
        #expect(dateKeys == ["at"])
    }

    @Test func roundTripsFoundationTypesInTheirJSONForms() throws {
        let original = Everything(
            int8: -8, uint64: 42, float: 1.1, data: Data([0, 1, 255]), url: URL(string: "https://example.com/a?b=c")!,
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, decimal: Decimal(string: "12.5")!,
            nested: ["a": [1, 2]], json: [1, "x"], object: ["k": true],
            timestamp: Timestamp(ticks: 9_876_543_210_123_457)
        )
        let value = try JSONValueEncoder().encode(original)
        let object = try #require(value.objectValue)
        #expect(object["float"] == 1.1)
        #expect(object["data"] == "AAH/")
        #expect(object["url"] == "https://example.com/a?b=c")
        #expect(object["uuid"] == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(object["decimal"] == 12.5)
        #expect(object["json"] == [1, "x"])
        #expect(object["timestamp"] == "2001-04-19T04:25:21.0123457Z")
        #expect(try JSONValueDecoder().decode(Everything.self, from: value) == original)
    }

    @Test func rejectsNonFiniteDoublesWithAnEncodingError() {
        struct Ratio: Encodable { var ratio: Double }
        #expect {
            try JSONValueEncoder().encode(Ratio(ratio: .nan))
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["ratio"]
        }
    }

    @Test func rejectsUnsignedIntegersBeyondInt64() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([UInt64.max]) }
    }

    @Test func reportsAMissingKeyWithItsPath() {
        let value: JSONValue = ["inner": [:]]
        #expect {
            try JSONValueDecoder().decode(Nested.self, from: value)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "count" && context.codingPath.map(\.stringValue) == ["inner"]
        }
    }

    @Test func reportsATypeMismatchWithItsPath() {
        let value: JSONValue = ["inner": ["count": "three"]]
        #expect {
            try JSONValueDecoder().decode(Nested.self, from: value)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["inner", "count"]
        }
    }

    @Test func reportsNullForARequiredValueAsValueNotFound() {
        let value: JSONValue = ["inner": ["count": nil]]
        #expect {
            try JSONValueDecoder().decode(Nested.self, from: value)
        } throws: { error in
            guard case DecodingError.valueNotFound = error else { return false }
            return true
        }
    }

    @Test func decodesIntegersFromIntegralDoublesAndDoublesFromIntegers() throws {
        let value: JSONValue = ["inner": ["count": 3.0]]
        #expect(try JSONValueDecoder().decode(Nested.self, from: value) == Nested(inner: .init(count: 3)))
        #expect(try JSONValueDecoder().decode(Double.self, from: 3) == 3)
    }

    @Test func rejectsFractionalOrOversizedIntegers() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: 3.5) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt8.self, from: 300) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt.self, from: -1) }
    }

    @Test(arguments: [
        ("2024-05-01T10:00:00Z", 1_714_557_600.0),
        ("2024-05-01T10:00:00.5Z", 1_714_557_600.5),
        ("2024-05-01T10:00:00.123+00:00", 1_714_557_600.123),
        ("2024-05-01T12:00:00.1230000+02:00", 1_714_557_600.123),
        ("2024-05-01T09:30:00-0030", 1_714_557_600.0),
    ])
    func decodesDatesInEveryAcceptedForm(text: String, seconds: Double) throws {
        let date = try JSONValueDecoder().decode(Date.self, from: .string(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test func rejectsNumbersAsDates() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Date.self, from: 1_714_557_600) }
    }

    @Test func rejectsMalformedDateStrings() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Date.self, from: "yesterday") }
    }

    @Test func encodesDatesRoundedToTheNearestMillisecond() throws {
        let value = try JSONValueEncoder().encode(Date(timeIntervalSince1970: 1.0006))
        #expect(value == "1970-01-01T00:00:01.001Z")
    }

    @Test func millisecondDatesSurviveAnEncodeDecodeRoundTrip() throws {
        for millis in stride(from: Int64(1_714_557_600_000), to: 1_714_557_601_000, by: 7) {
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            let value = try JSONValueEncoder().encode(date)
            let decoded = try JSONValueDecoder().decode(Date.self, from: value)
            #expect(try JSONValueEncoder().encode(decoded) == value)
        }
    }

    @Test func decodesJSONObjectThroughFoundationCoders() throws {
        let object: JSONObject = ["id": "a", "n": 1, "d": 1.5, "b": true, "z": nil, "list": [1, "x"], "o": ["k": "v"]]
        let data = try JSONEncoder().encode(object)
        #expect(try JSONDecoder().decode(JSONObject.self, from: data) == object)
    }

    @Test func decodesJSONValuesAndObjectsDirectly() throws {
        let value: JSONValue = ["id": "a", "list": [1, nil]]
        #expect(try JSONValueDecoder().decode(JSONValue.self, from: value) == value)
        #expect(try JSONValueDecoder().decode(JSONObject.self, from: value).id == "a")
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(JSONObject.self, from: [1]) }
    }
}
