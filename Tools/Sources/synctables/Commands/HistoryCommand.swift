import ArgumentParser
import Foundation
@_spi(SyncTablesTools) import SyncTables

/// `synctables history`: what became of recent operations, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List what became of recent operations, newest first: time, outcome, table, item id, kind, attempts.",
        discussion: """
            Outcomes are pushed, failed (with the HTTP status and message), deadLettered, discarded and resolved. \
            A conflict the table's rules resolved says which kind it was, which rule decided and, for a merge, \
            what became of each field (`quantity: 7 + (−2)`); --json lists the fields one by one. \
            The store keeps the latest 1,000 entries unless the app set another retention.
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Only the entries of this table.", valueName: "table"))
    var table: String?

    @Option(help: ArgumentHelp("At most this many entries (the newest).", valueName: "count"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await reportingFailures(options) {
            let entries = try await StoreSession.with(options) { session in
                // A misspelled table is an error, not an empty list.
                var name: String?
                if let table { name = try await session.existingTableName(table) }
                return try await session.context.history(table: name, limit: limit)
            }
            let json: JSONObject = ["entries": .array(entries.map { .object(Self.json($0)) })]
            let text =
                entries.isEmpty
                ? "no history"
                : TextTable(
                    header: ["TIME", "OUTCOME", "TABLE", "ITEM ID", "KIND", "ATTEMPTS", "DETAILS"],
                    rows: entries.map {
                        [
                            Timestamp(date: $0.recordedAt).iso8601, $0.outcome.rawValue, $0.table, $0.itemId,
                            "\($0.kind)", "\($0.attempts)", Self.details($0),
                        ]
                    }
                ).text
            Output(options).emit(json, text: text)
        }
    }

    static func json(_ entry: OperationHistoryEntry) -> JSONObject {
        [
            "sequence": .count(entry.sequence),
            "operationId": .string(entry.operationId),
            "table": .string(entry.table),
            "itemId": .string(entry.itemId),
            "kind": .string(entry.kind.rawValue),
            "outcome": .string(entry.outcome.rawValue),
            "status": .optional(entry.status),
            "message": .optional(entry.message),
            "attempts": .count(entry.attempts),
            "recordedAt": .time(Timestamp(date: entry.recordedAt)),
            "conflict": .optional(entry.conflict?.rawValue),
            "conflictRule": .optional(entry.conflictRule?.rawValue),
            "merge": .array(
                entry.merge.map { step in
                    .object([
                        "field": .string(step.field), "change": .string(step.change.rawValue),
                        "rule": .optional(step.rule?.rawValue), "summary": .string(step.summary),
                    ])
                }),
        ]
    }

    /// `HTTP 422 the message`, or what is known of it (a resolution's trace); empty when there is nothing.
    private static func details(_ entry: OperationHistoryEntry) -> String {
        [entry.status.map { "HTTP \($0)" }, entry.message].compactMap { $0 }.joined(separator: " ")
    }
}
