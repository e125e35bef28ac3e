import SyncTables

/// Assertions for checks: each throws a ``ConformanceFailure`` describing the mismatch.
enum Expect {
    static func equal<Value: Equatable>(
        _ actual: Value, _ expected: Value, _ what: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) throws {
        guard actual == expected else {
            throw ConformanceFailure("\(what()): expected \(expected), got \(actual)", file: file, line: line)
        }
    }

    static func isTrue(
        _ condition: Bool, _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        guard condition else { throw ConformanceFailure(what(), file: file, line: line) }
    }

    /// Runs `body` and requires it to throw exactly `expected`.
    static func throwsError(
        _ expected: StoreError, _ what: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch let error as StoreError {
            guard error == expected else {
                throw ConformanceFailure("\(what()): expected \(expected), got \(error)", file: file, line: line)
            }
            return
        } catch {
            throw ConformanceFailure("\(what()): expected \(expected), got \(error)", file: file, line: line)
        }
        throw ConformanceFailure("\(what()): expected \(expected), but nothing was thrown", file: file, line: line)
    }
}

/// Small builders that keep the checks readable.
enum Build {
    static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONObject {
        var properties: [String: JSONValue] = [:]
        for (key, value) in pairs { properties[key] = value }
        return JSONObject(properties)
    }

    /// `array` with the element at `index` replaced by `element`.
    static func replacing<Element>(_ array: [Element], at index: Int, with element: Element) -> [Element] {
        var copy = array
        copy[index] = element
        return copy
    }

    static func ids(_ items: [JSONObject]) -> [String] {
        items.map { item in
            if case .string(let id)? = item["id"] { return id }
            return "<no id>"
        }
    }

    /// A timestamp from UTC seconds since the epoch plus 100 ns ticks.
    static func timestamp(seconds: Int64, ticks: Int64 = 0) -> Timestamp {
        Timestamp(ticks: seconds * 10_000_000 + ticks)
    }

    /// Defines `table` and stores `items` in one write.
    static func table(
        _ store: any LocalStore, _ table: String, dateProperties: Set<String> = [], items: [JSONObject]
    ) async throws {
        try await store.defineTable(TableDefinition(name: table, dateProperties: dateProperties))
        try await store.write { try $0.upsert(table: table, items: items) }
    }
}

/// A `Sendable` box for smuggling a value out of a closure in checks that must misuse the API on purpose.
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value?
}
