/// The value each ``FieldMergeRule`` gives a field both sides changed, and how it is told.
enum FieldMergeValues {
    /// Whether a property is the item's id or belongs to the server's bookkeeping, rather than to its data.
    static func isSystemProperty(_ name: String) -> Bool {
        name == "id" || SyncClient.systemPropertyNames.contains(name.lowercased())
    }

    /// The merged value of a field both sides changed, and its summary. `ancestor` is `nil` when unknown.
    static func resolve(_ rule: FieldMergeRule, ancestor: JSONValue?, local: JSONValue, server: JSONValue)
        -> (JSONValue, String)
    {
        switch rule {
        case .lastWriter:
            return (local, "yours, written last")
        case .clientWins:
            return (local, "kept yours over the server's")
        case .serverWins:
            return (server, "server's over yours")
        case .ask:
            return (local, "left to the app")
        case .counter:
            guard let ancestor, let counted = count(ancestor: ancestor, local: local, server: server) else {
                return (local, "yours, written last (a counter needs numbers on every side)")
            }
            return counted
        case .union:
            return union(ancestor: ancestor, local: local, server: server)
                ?? (local, "yours, written last (a set needs arrays on every side)")
        }
    }

    /// server + local − ancestor, in integers when all three are, told as `server + (local − ancestor)`.
    private static func count(ancestor: JSONValue, local: JSONValue, server: JSONValue) -> (JSONValue, String)? {
        if case .integer(let base) = ancestor, case .integer(let mine) = local, case .integer(let theirs) = server {
            let (delta, deltaOverflow) = mine.subtractingReportingOverflow(base)
            let (total, totalOverflow) = theirs.addingReportingOverflow(delta)
            if !deltaOverflow && !totalOverflow {
                return (.integer(total), "\(theirs) + (\(signed(String(delta))))")
            }
        }
        guard let base = ancestor.doubleValue, let mine = local.doubleValue, let theirs = server.doubleValue else {
            return nil
        }
        let delta = mine - base
        return (.double(theirs + delta), "\(format(theirs)) + (\(signed(format(delta))))")
    }

    /// The server's elements without those the local side removed, then those it added.
    private static func union(ancestor: JSONValue?, local: JSONValue, server: JSONValue) -> (JSONValue, String)? {
        guard case .array(let mine) = local, case .array(let theirs) = server else { return nil }
        var base: [JSONValue] = []
        if let ancestor {
            if case .array(let elements) = ancestor { base = elements } else if ancestor != .null { return nil }
        }
        let added = mine.filter { !base.contains($0) }
        let removed = ancestor == nil ? [] : base.filter { !mine.contains($0) }
        var result = theirs.filter { !removed.contains($0) }
        for element in added where !result.contains(element) { result.append(element) }
        return (.array(result), "server's with yours added (\(added.count)) and removed (\(removed.count))")
    }

    /// A number with a typographic minus sign, as people read it.
    private static func signed(_ text: String) -> String {
        text.hasPrefix("-") ? "−" + text.dropFirst() : text
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
