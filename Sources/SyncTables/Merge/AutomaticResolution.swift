@_spi(SyncTablesTools) import SyncTablesCore

/// Resolves a conflict by a table's ``SyncRules``, without the app: the resolution to apply and the trace
/// the history keeps, or `nil` when the rules leave it to the ``ConflictPolicy`` (rule ``ConflictRule/ask``,
/// a field that asks, or an answer without the server's item).
struct AutomaticResolution: Sendable {
    let rules: SyncRules
    /// Restores items the server soft-deleted, when the local side recreates them.
    let client: SyncClient

    /// The resolution of `error`, a conflict of `kind`. `operation` is the operation as stored now and
    /// `localRow` the item's local row (`nil` for deletes).
    func resolve(
        _ kind: ConflictKind, operation: PendingOperation, error: TableOperationError, localRow: JSONObject?
    ) async throws -> (ConflictResolution, ResolutionTrace)? {
        let server = error.serverItem
        let local = localRow ?? error.clientItem
        switch kind {
        case .insertInsert:
            guard let server else { return nil }
            // An insert with an ancestor recreates an item this device deleted: it wins over the deletion.
            let recreating = operation.recreatesItem
            if server.isTombstone {
                // A recreation restores the item; another insert meeting a deleted id follows the table's rule
                // (client wins: restore it, as a server that deletes rows for good would simply insert it).
                let rule = recreating ? ConflictRule.clientWins : rules.conflictRules[kind] ?? .ask
                switch rule {
                case .serverWins:
                    return (
                        .cancelAndDiscardItem, trace(kind, rule, "the server had deleted this id; the deletion stands")
                    )
                case .clientWins, .merge:
                    return try await restore(server, local: local, table: error.table, kind: kind, rule: rule)
                case .ask:
                    return nil
                }
            }
            if recreating {
                // The delete never reached the server: the recreation is an update of the copy it was based on.
                return resolveUpdate(
                    .updateUpdate, rule: rules.rule(for: .updateUpdate), ancestor: operation.ancestor, local: local,
                    server: server)
            }
            return resolveUpdate(kind, rule: rules.rule(for: kind), ancestor: nil, local: local, server: server)
        case .updateUpdate:
            guard let server else { return nil }
            return resolveUpdate(
                kind, rule: rules.rule(for: kind), ancestor: operation.ancestor, local: local, server: server)
        case .updateDelete:
            let rule = rules.rule(for: kind)
            switch rule {
            case .serverWins:
                return (.cancelAndDiscardItem, trace(kind, rule, "deleted on the server; the deletion stands"))
            case .clientWins:
                guard var item = local else { return nil }
                item["version"] = nil
                return (.convert(to: .insert, item: item), trace(kind, rule, "deleted on the server; created again"))
            case .merge, .ask:
                return nil
            }
        case .deleteUpdate:
            guard let server else { return nil }
            let rule = rules.rule(for: kind)
            switch rule {
            case .serverWins:
                return (
                    .cancelAndUpdateItem(server), trace(kind, rule, "changed on the server; the server's item stays")
                )
            case .clientWins:
                var item = error.clientItem ?? JSONObject(["id": .string(error.itemId)])
                item["version"] = server["version"]
                return (.retry(updatingItem: item), trace(kind, rule, "changed on the server; deleted anyway"))
            case .merge, .ask:
                return nil
            }
        }
    }

    /// An update's (or a same-id insert's) conflict with the server's live copy.
    private func resolveUpdate(
        _ kind: ConflictKind, rule: ConflictRule, ancestor: JSONObject?, local: JSONObject?, server: JSONObject
    ) -> (ConflictResolution, ResolutionTrace)? {
        guard let local else { return nil }
        switch rule {
        case .serverWins:
            return (.cancelAndUpdateItem(server), trace(kind, rule, "the server's item"))
        case .clientWins:
            var item = local
            item["version"] = server["version"]
            return (.retry(updatingItem: item), trace(kind, rule, "yours over the server's"))
        case .merge:
            let result = rules.merge(ancestor: ancestor, local: local, server: server)
            guard result.isComplete else { return nil }
            var trace = trace(kind, rule, "merged per field")
            trace.steps = result.steps
            trace.message += ": " + result.summary
            if ItemComparison.sameUserData(result.merged, server) {
                // The server's item already holds every merged value: nothing is left to send.
                return (.cancelAndUpdateItem(server), trace)
            }
            return (.retry(updatingItem: result.merged), trace)
        case .ask:
            return nil
        }
    }

    /// Restores an item the server soft-deleted and sends the local item over it.
    private func restore(
        _ tombstone: JSONObject, local: JSONObject?, table: String, kind: ConflictKind, rule: ConflictRule
    ) async throws -> (ConflictResolution, ResolutionTrace)? {
        guard var item = local, case .string(let id)? = tombstone["id"] else { return nil }
        let restored = try await client.undelete(
            table: table, id: id, ifMatch: ItemVersion.version(of: tombstone), features: [.offline])
        item["version"] = restored["version"]
        var trace = trace(kind, rule, "deleted on the server; restored and sent again")
        trace.ancestor = restored
        return (.convert(to: .update, item: item), trace)
    }

    private func trace(_ kind: ConflictKind, _ rule: ConflictRule, _ what: String) -> ResolutionTrace {
        ResolutionTrace(conflict: kind, rule: rule, message: "\(kind.label): \(what)")
    }
}

extension ConflictKind {
    /// The kind as people write it: `update/delete`.
    var label: String {
        switch self {
        case .updateUpdate: "update/update"
        case .updateDelete: "update/delete"
        case .deleteUpdate: "delete/update"
        case .insertInsert: "insert/insert"
        }
    }
}
