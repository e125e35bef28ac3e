import ArgumentParser
@_spi(SyncTablesTools) import SyncTables

/// `synctables queue`: the pending operations in push order.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "List the pending operations in push order: sequence, kind, table, item id, state, attempts, "
            + "and the parent an operation waits for."
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Only the operations of this table.", valueName: "table"))
    var table: String?

    func run() async throws {
        try await reportingFailures(options) {
            let statuses = try await StoreSession.with(options) { session in
                // A misspelled table is an error, not an empty list.
                var name: String?
                if let table { name = try await session.existingTableName(table) }
                return try await session.context.pendingOperationStatuses(table: name)
            }
            let json: JSONObject = ["operations": .array(statuses.map { .object(Self.json($0)) })]
            Output(options).emit(json, text: Self.text(statuses))
        }
    }

    static func json(_ status: PendingOperationStatus) -> JSONObject {
        let operation = status.operation
        return [
            "sequence": .count(operation.sequence),
            "operationId": .string(operation.id),
            "kind": .string(operation.kind.rawValue),
            "table": .string(operation.table),
            "itemId": .string(operation.itemId),
            "state": .string(operation.state.rawValue),
            "attempts": .count(operation.attempts),
            "createdAt": .time(operation.createdAt),
            "waitingFor": status.parentHold.map { .object(ParentHoldOutput.json($0)) } ?? .null,
        ]
    }

    /// The table; the WAITING FOR column only when an operation waits for a parent, so the usual listing
    /// stays as narrow as before.
    static func text(_ statuses: [PendingOperationStatus]) -> String {
        guard !statuses.isEmpty else { return "no pending operations" }
        let showsHolds = statuses.contains { $0.parentHold != nil }
        var header = ["SEQUENCE", "KIND", "TABLE", "ITEM ID", "STATE", "ATTEMPTS"]
        if showsHolds { header.append("WAITING FOR") }
        let rows = statuses.map { status in
            let operation = status.operation
            var row = [
                "\(operation.sequence)", "\(operation.kind)", operation.table, operation.itemId, "\(operation.state)",
                "\(operation.attempts)",
            ]
            if showsHolds { row.append(status.parentHold.map(ParentHoldOutput.text) ?? "") }
            return row
        }
        return TextTable(header: header, rows: rows).text
    }
}
