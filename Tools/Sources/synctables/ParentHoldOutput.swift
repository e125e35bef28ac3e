@_spi(SyncTablesTools) import SyncTables

/// How `queue`, `status` and `dead` show that an operation waits for its parent's insert, in text and JSON.
enum ParentHoldOutput {
    /// `TaskList 'l1'`, or `TaskList 'l1' (dead)`.
    static func text(_ hold: ParentHold) -> String {
        "\(hold.table) '\(hold.itemId)'" + (hold.parentState == .dead ? " (dead)" : "")
    }

    static func json(_ hold: ParentHold) -> JSONObject {
        [
            "table": .string(hold.table),
            "itemId": .string(hold.itemId),
            "property": .string(hold.property),
            "operationId": .string(hold.operationId),
            "parentState": .string(hold.parentState.rawValue),
        ]
    }

    /// One held child in `dead` output.
    static func json(child operation: PendingOperation) -> JSONObject {
        [
            "operationId": .string(operation.id),
            "kind": .string(operation.kind.rawValue),
            "table": .string(operation.table),
            "itemId": .string(operation.itemId),
        ]
    }
}
