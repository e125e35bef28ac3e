import ArgumentParser
@_spi(SyncTablesTools) import SyncTables

/// `synctables queue`: the pending operations in push order.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "List the pending operations in push order: sequence, kind, table, item id, state, attempts."
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Only the operations of this table.", valueName: "table"))
    var table: String?

    func run() async throws {
        try await reportingFailures(options) {
            let operations = try await StoreSession.with(options) { session in
                // A misspelled table is an error, not an empty list.
                var name: String?
                if let table { name = try await session.existingTableName(table) }
                return try await session.context.pendingOperations(table: name)
            }
            let json: JSONObject = ["operations": .array(operations.map { .object(Self.json($0)) })]
            let text =
                operations.isEmpty
                ? "no pending operations"
                : TextTable(
                    header: ["SEQUENCE", "KIND", "TABLE", "ITEM ID", "STATE", "ATTEMPTS"],
                    rows: operations.map {
                        ["\($0.sequence)", "\($0.kind)", $0.table, $0.itemId, "\($0.state)", "\($0.attempts)"]
                    }
                ).text
            Output(options).emit(json, text: text)
        }
    }

    static func json(_ operation: PendingOperation) -> JSONObject {
        [
            "sequence": .count(operation.sequence),
            "operationId": .string(operation.id),
            "kind": .string(operation.kind.rawValue),
            "table": .string(operation.table),
            "itemId": .string(operation.itemId),
            "state": .string(operation.state.rawValue),
            "attempts": .count(operation.attempts),
            "createdAt": .time(operation.createdAt),
        ]
    }
}
