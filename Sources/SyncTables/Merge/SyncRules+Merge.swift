extension SyncRules {
    /// Merges a local change with the server's copy, field by field, against their common ancestor.
    ///
    /// A field changed on one side only takes that side's value; a field both sides changed to different
    /// values follows its ``FieldMergeRule``. Without an ancestor every field that differs counts as changed
    /// on both sides. System properties (`id`, `version`, `createdAt`, `updatedAt`, `deleted`) and properties
    /// the local item lacks (the app does not model them) are the server's. Pure: nothing is read or written.
    ///
    /// ```swift
    /// let result = Task.syncRules.merge(ancestor: base, local: mine, server: theirs)
    /// print(result.summary)   // "quantity: 7 + (−2); title: kept yours"
    /// ```
    public func merge(ancestor: JSONObject?, local: JSONObject, server: JSONObject) -> FieldMergeResult {
        var merged = server
        var steps: [FieldMergeStep] = []
        var asked: [String] = []
        // A property the local item lacks is one the app does not model: the server's value stands.
        for name in local.properties.keys.sorted() where !FieldMergeValues.isSystemProperty(name) {
            let mine = local[name] ?? .null
            let theirs = server[name] ?? .null
            let base = ancestor.map { $0[name] ?? .null }
            let rule = rule(forField: name)
            // Equal values agree, except a counter's: equal totals may be two equal changes, both to keep.
            let equalChanges = rule == .counter && base != nil && base != mine
            guard mine != theirs || equalChanges else { continue }
            if let base, base == theirs {
                merged[name] = mine
                steps.append(FieldMergeStep(field: name, change: .local, summary: "kept yours"))
                continue
            }
            if let base, base == mine {
                steps.append(FieldMergeStep(field: name, change: .server, summary: "server's"))
                continue
            }
            let (value, summary) = FieldMergeValues.resolve(rule, ancestor: base, local: mine, server: theirs)
            if rule == .ask { asked.append(name) }
            merged[name] = value
            steps.append(FieldMergeStep(field: name, change: .both, rule: rule, summary: summary))
        }
        return FieldMergeResult(merged: merged, steps: steps, askedFields: asked)
    }
}
