import Foundation
import SyncTables

/// A throwaway dictionary-backed store used only until the store branch's MemoryStore/SQLiteStore land in main.
/// It evaluates just enough of `FilterExpression` (comparisons, and/or/not) for the server's own filters.
final class InterimMemoryStore: LocalStore, @unchecked Sendable {
    private let lock = NSLock()
    private var tables: [String: [String: JSONObject]] = [:]
    private var definitions: [String: TableDefinition] = [:]

    func defineTable(_ definition: TableDefinition) async throws {
        locked {
            definitions[definition.name] = definition
            if tables[definition.name] == nil { tables[definition.name] = [:] }
        }
    }

    func tableDefinitions() async throws -> [TableDefinition] { locked { Array(definitions.values) } }
    func read(_ query: StoreQuery) async throws -> [JSONObject] { try locked { try Tx(store: self).read(query) } }
    func count(_ query: StoreQuery) async throws -> Int { try locked { try Tx(store: self).count(query) } }
    func lookup(table: String, id: String) async throws -> JSONObject? {
        try locked { try Tx(store: self).lookup(table: table, id: id) }
    }
    func write<Result: Sendable>(_ body: @Sendable (any StoreTransaction) throws -> Result) async throws -> Result {
        try locked {
            let saved = tables
            do { return try body(Tx(store: self)) } catch {
                tables = saved
                throw error
            }
        }
    }
    func close() async throws {}

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private struct Tx: StoreTransaction {
        let store: InterimMemoryStore

        func defineTable(_ definition: TableDefinition) throws {
            store.definitions[definition.name] = definition
            if store.tables[definition.name] == nil { store.tables[definition.name] = [:] }
        }
        func read(_ query: StoreQuery) throws -> [JSONObject] {
            guard let rows = store.tables[query.table] else { throw StoreError.unknownTable(query.table) }
            var matching = rows.values.filter { row in query.filter.map { Self.truth($0, row) } ?? true }
            matching.sort { a, b in
                for key in query.ordering {
                    let order = Self.compare(a[key.property] ?? .null, b[key.property] ?? .null)
                    if order != 0 { return key.ascending ? order < 0 : order > 0 }
                }
                return Array((a["id"].flatMap(Self.text) ?? "").utf8)
                    .lexicographicallyPrecedes(Array((b["id"].flatMap(Self.text) ?? "").utf8))
            }
            let skipped = matching.dropFirst(query.offset)
            return Array(query.limit.map { skipped.prefix($0) } ?? skipped)
        }
        func count(_ query: StoreQuery) throws -> Int { try read(query).count }
        func lookup(table: String, id: String) throws -> JSONObject? {
            guard let rows = store.tables[table] else { throw StoreError.unknownTable(table) }
            return rows[id]
        }
        func upsert(table: String, items: [JSONObject]) throws {
            guard store.tables[table] != nil else { throw StoreError.unknownTable(table) }
            for item in items {
                guard case .string(let id)? = item["id"] else { throw StoreError.missingID(table: table) }
                store.tables[table]?[id] = item
            }
        }
        func delete(table: String, ids: [String]) throws -> Int {
            var removed = 0
            for id in ids where store.tables[table]?.removeValue(forKey: id) != nil { removed += 1 }
            return removed
        }
        func delete(_ query: StoreQuery) throws -> Int {
            let ids = try read(StoreQuery(table: query.table, filter: query.filter)).compactMap { $0["id"].flatMap(Self.text) }
            return try delete(table: query.table, ids: ids)
        }

        static func text(_ value: JSONValue) -> String? {
            if case .string(let text) = value { return text }
            return nil
        }

        static func value(_ expression: FilterExpression, _ item: JSONObject) -> JSONValue {
            switch expression {
            case .property(let name): item[name] ?? .null
            case .value(let value): value
            default: .bool(truth(expression, item))
            }
        }

        static func truth(_ expression: FilterExpression, _ item: JSONObject) -> Bool {
            switch expression {
            case .not(let inner): !truth(inner, item)
            case .and(let a, let b): truth(a, item) && truth(b, item)
            case .or(let a, let b): truth(a, item) || truth(b, item)
            case .comparison(let op, let a, let b):
                compareMatches(op, value(a, item), value(b, item))
            case .value(.bool(let flag)): flag
            default: false
            }
        }

        static func compareMatches(_ op: ComparisonOperator, _ a: JSONValue, _ b: JSONValue) -> Bool {
            if op == .equal { return compare(a, b) == 0 && sameNullness(a, b) }
            if op == .notEqual { return !(compare(a, b) == 0 && sameNullness(a, b)) }
            if a == .null || b == .null { return false }
            let order = compare(a, b)
            switch op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        }

        static func sameNullness(_ a: JSONValue, _ b: JSONValue) -> Bool { (a == .null) == (b == .null) }

        static func rank(_ value: JSONValue) -> Int {
            switch value {
            case .null: 0
            case .bool, .integer, .double: 1
            default: 2
            }
        }

        static func number(_ value: JSONValue) -> Double {
            switch value {
            case .bool(let flag): flag ? 1 : 0
            case .integer(let integer): Double(integer)
            case .double(let double): double
            default: 0
            }
        }

        static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
            let (ra, rb) = (rank(a), rank(b))
            if ra != rb { return ra < rb ? -1 : 1 }
            switch ra {
            case 0: return 0
            case 1:
                let (x, y) = (number(a), number(b))
                return x < y ? -1 : x > y ? 1 : 0
            default:
                let (x, y) = (Array((text(a) ?? "").utf8), Array((text(b) ?? "").utf8))
                return x == y ? 0 : x.lexicographicallyPrecedes(y) ? -1 : 1
            }
        }
    }
}
