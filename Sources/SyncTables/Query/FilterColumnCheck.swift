/// Refuses a filter that names a property the table cannot have: a typo would otherwise match nothing,
/// or, negated (`not (compelte eq true)`), everything, which a purge would then remove.
///
/// A name is known when it is a system property, a property of the table's item type, or one a row of
/// the table ever had (asked of the store only when the first two do not settle it).
struct FilterColumnCheck {
    /// The system properties every table has.
    static let systemProperties: Set<String> = ["id", "createdAt", "updatedAt", "version", "deleted"]

    let table: String
    /// The properties the item type declares; `nil` when they are not known (no check is made).
    let itemProperties: Set<String>?
    /// Whether a table of which nothing is known (no declared and no stored property) passes: a pull of a
    /// dynamic table the store has never held cannot know its columns, the server can.
    var passesUnknownTable = false

    /// Throws ``SyncError/unknownColumn(_:table:nearest:)`` for the first unknown name `filter` uses.
    func check(_ filter: FilterExpression?, in store: any LocalStore) async throws(SyncError) {
        guard let filter, let itemProperties else { return }
        let declared = Self.systemProperties.union(itemProperties)
        let unsettled = Self.propertyNames(in: filter).filter { !declared.contains($0) }
        guard !unsettled.isEmpty, let propertyNames = store.capabilities.propertyNames else { return }
        let stored = try await SyncError.mapping { try await propertyNames(table) }
        if passesUnknownTable, itemProperties.isEmpty, stored.isEmpty { return }
        let known = declared.union(stored)
        guard let unknown = unsettled.first(where: { !known.contains($0) }) else { return }
        throw .unknownColumn(unknown, table: table, nearest: Self.nearest(to: unknown, among: known))
    }

    /// The property names a filter reads, in the order they appear.
    static func propertyNames(in filter: FilterExpression) -> [String] {
        var names: [String] = []
        func visit(_ expression: FilterExpression) {
            switch expression {
            case .property(let name): names.append(name)
            case .value, .timestamp: break
            case .not(let operand), .negate(let operand): visit(operand)
            case .and(let left, let right), .or(let left, let right), .comparison(_, let left, let right),
                .arithmetic(_, let left, let right):
                visit(left)
                visit(right)
            case .function(_, let arguments): arguments.forEach(visit)
            case .isIn(let value, let list):
                visit(value)
                list.forEach(visit)
            }
        }
        visit(filter)
        return names
    }

    /// The known name with the smallest edit distance to `name` (ignoring case), if any is close enough to
    /// be a plausible intent: at most half of `name`'s characters differ.
    static func nearest(to name: String, among known: Set<String>) -> String? {
        let target = Array(name.lowercased())
        let scored = known.map { ($0, editDistance(target, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        return best.1 <= max(1, target.count / 2) ? best.0 : nil
    }

    /// Levenshtein distance: insertions, deletions and substitutions, each costing one.
    private static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        var previous = Array(0...rhs.count)
        for (i, left) in lhs.enumerated() {
            var current = [i + 1]
            for (j, right) in rhs.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[rhs.count]
    }
}
