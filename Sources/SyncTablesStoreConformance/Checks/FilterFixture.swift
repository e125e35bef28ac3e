import SyncTables

/// The ten rows every filter case runs against: mixed types, nulls, missing properties, dates with
/// offsets and 7-digit fractions, Unicode text.
enum FilterFixture {
    static let table = "Fixture"
    static let dateProperties: Set<String> = ["due"]
    static let allIDs = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]

    /// 2024-05-01T10:00:00Z
    static let tenOClock = Build.timestamp(seconds: 1_714_557_600)
    /// 2024-05-01T00:00:00Z
    static let midnight = Build.timestamp(seconds: 1_714_521_600)
    /// 2024-01-01T00:59:59.9999999Z, row e's `due`
    static let newYear = Build.timestamp(seconds: 1_704_070_799, ticks: 9_999_999)

    static let items: [JSONObject] = [
        Build.object([
            "id": .string("a"), "text": .string("Buy milk"), "n": .integer(1), "price": .double(2.5),
            "done": .bool(false), "tag": .null, "due": .string("2024-05-01T10:00:00.000Z"),
            "note": .string("2024-05-01T10:00:00Z"),
        ]),
        Build.object([
            "id": .string("b"), "text": .string("buy bread"), "n": .integer(2), "price": .double(3.0),
            "done": .bool(true), "due": .string("2024-05-01T12:00:00.0000001+02:00"),
            "meta": .object(Build.object(["k": .integer(1)])),
        ]),
        Build.object([
            "id": .string("c"), "text": .string("\u{C9}clair caf\u{E9}"), "n": .integer(10), "price": .double(-1.5),
            "done": .bool(false), "due": .string("not a date"),
        ]),
        Build.object([
            "id": .string("d"), "text": .string(""), "n": .integer(0), "done": .bool(true),
            "list": .array([.integer(1), .integer(2)]),
        ]),
        Build.object([
            "id": .string("e"), "text": .string("O'Reilly \"quoted\""), "n": .integer(-3), "price": .integer(0),
            "due": .string("2023-12-31T23:59:59.9999999-01:00"),
        ]),
        Build.object(["id": .string("f"), "text": .string("  padded  "), "n": .double(2.0)]),
        Build.object(["id": .string("g"), "text": .string("stra\u{DF}e"), "n": .string("2"), "done": .integer(1)]),
        Build.object(["id": .string("h"), "text": .null, "n": .null]),
        Build.object(["id": .string("i"), "text": .string("ABC"), "n": .integer(100), "price": .double(1e10)]),
        Build.object(["id": .string("j"), "text": .string("emoji \u{1F600} x"), "n": .integer(3)]),
    ]

    /// A store holding the fixture table.
    static func store(_ makeStore: @Sendable () async throws -> any LocalStore) async throws -> any LocalStore {
        let store = try await makeStore()
        try await Build.table(store, table, dateProperties: dateProperties, items: items)
        return store
    }
}

/// Shorthand for writing filter cases.
enum F {
    static func p(_ name: String) -> FilterExpression { .property(name) }
    static func i(_ value: Int64) -> FilterExpression { .value(.integer(value)) }
    static func d(_ value: Double) -> FilterExpression { .value(.double(value)) }
    static func s(_ value: String) -> FilterExpression { .value(.string(value)) }
    static func b(_ value: Bool) -> FilterExpression { .value(.bool(value)) }
    static let null = FilterExpression.value(.null)
    static func t(_ value: Timestamp) -> FilterExpression { .timestamp(value) }
    static func eq(_ l: FilterExpression, _ r: FilterExpression) -> FilterExpression { .comparison(.equal, l, r) }
    static func ne(_ l: FilterExpression, _ r: FilterExpression) -> FilterExpression { .comparison(.notEqual, l, r) }
    static func lt(_ l: FilterExpression, _ r: FilterExpression) -> FilterExpression { .comparison(.lessThan, l, r) }
    static func le(_ l: FilterExpression, _ r: FilterExpression) -> FilterExpression {
        .comparison(.lessThanOrEqual, l, r)
    }
    static func gt(_ l: FilterExpression, _ r: FilterExpression) -> FilterExpression {
        .comparison(.greaterThan, l, r)
    }
    static func ge(_ l: FilterExpression, _ r: FilterExpression) -> FilterExpression {
        .comparison(.greaterThanOrEqual, l, r)
    }
    static func fn(_ function: FilterFunction, _ arguments: FilterExpression...) -> FilterExpression {
        .function(function, arguments)
    }
    static func math(_ op: ArithmeticOperator, _ l: FilterExpression, _ r: FilterExpression) -> FilterExpression {
        .arithmetic(op, l, r)
    }
}
