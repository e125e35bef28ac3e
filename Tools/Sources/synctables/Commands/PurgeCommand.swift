import ArgumentParser
import Foundation
@_spi(SyncTablesTools) import SyncTables

/// `synctables purge`: one table (or part of it), or every stale table.
struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove a table's local rows (or those matching --filter), or those of every stale table.",
        discussion: """
            Without --force, a table with pending operations is refused: it is named on stderr and the \
            command exits 5 (other stale tables are still purged). --stale selects every table whose most \
            recent successful pull is older than --older-than; tables never pulled are not stale. \
            --dry-run changes nothing and reports what a forced purge would remove, with the exit code \
            the real run would have.
            """
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: "The table to purge (omit with --stale).")
    var table: String?

    @Option(help: ArgumentHelp("Only rows matching this OData $filter expression.", valueName: "odata"))
    var filter: String?

    @Option(help: ArgumentHelp("Also reset this incremental query id's token.", valueName: "id"))
    var queryId: String?

    @Flag(help: "Purge every table whose last successful pull is older than --older-than.")
    var stale = false

    @Option(
        help: ArgumentHelp("The age that makes a table stale: 30d, 12h, 90m, 45s, 2w.", valueName: "age"),
        transform: AgeDuration.parse)
    var olderThan: AgeDuration?

    @Flag(help: "Also discard pending operations and push errors of the purged rows.")
    var force = false

    @Flag(help: "Change nothing; report what would be removed.")
    var dryRun = false

    func validate() throws {
        if stale {
            if table != nil { throw ValidationError("give either a table or --stale, not both") }
            if olderThan == nil { throw ValidationError("--stale needs --older-than (e.g. 30d)") }
            if filter != nil || queryId != nil {
                throw ValidationError("--filter and --query-id apply to one table, not to --stale")
            }
        } else {
            if table == nil { throw ValidationError("name a table to purge, or use --stale --older-than AGE") }
            if olderThan != nil { throw ValidationError("--older-than goes with --stale") }
        }
    }

    /// What happened (or would happen) to one table.
    struct TableOutcome {
        var table: String
        var refused: Bool
        var pendingOperations: Int
        var summary: PurgeSummary
    }

    func run() async throws {
        try await reportingFailures(options) {
            let expression = try filter.map { try ODataFilterParser.parse($0) }
            let outcomes = try await StoreSession.with(options) { session in
                try await purge(session, filter: expression)
            }
            let refused = outcomes.filter(\.refused)
            Output(options).emit(json(outcomes), text: text(outcomes))
            if !refused.isEmpty {
                let names = refused.map { "'\($0.table)' (\($0.pendingOperations) pending)" }.joined(separator: ", ")
                throw CommandFailure(
                    .purgeRefused,
                    "purge refused for \(names): push the operations first, or use --force to discard them",
                    reportedAsJSON: options.json)
            }
        }
    }

    private func purge(_ session: StoreSession, filter: FilterExpression?) async throws -> [TableOutcome] {
        let context = session.context
        let tables: [String]
        if stale, let olderThan {
            tables = try await context.staleTables(pulledBefore: olderThan.before(.now)).map(\.name)
        } else if let table {
            // Purge never creates a table.
            tables = [try await session.existingTableName(table)]
        } else {
            tables = []
        }
        var outcomes: [TableOutcome] = []
        for name in tables {
            let query = filter.map { StoreQuery(table: name, filter: $0) }
            if dryRun {
                let preview = try await context.purgePreview(table: name, query: query, queryId: queryId)
                outcomes.append(
                    TableOutcome(
                        table: name, refused: !force && preview.wouldBeRefused,
                        pendingOperations: preview.pendingOperations, summary: preview.summary))
                continue
            }
            do {
                let summary = try await context.purge(table: name, query: query, queryId: queryId, force: force)
                outcomes.append(TableOutcome(table: name, refused: false, pendingOperations: 0, summary: summary))
            } catch SyncError.pendingOperations {
                let pending = try await context.pendingOperationCount(table: name)
                outcomes.append(
                    TableOutcome(table: name, refused: true, pendingOperations: pending, summary: PurgeSummary()))
            }
        }
        return outcomes
    }

    private func json(_ outcomes: [TableOutcome]) -> JSONObject {
        [
            "dryRun": .bool(dryRun),
            "force": .bool(force),
            "stale": .bool(stale),
            "olderThan": .optional(olderThan?.description),
            "tables": .array(
                outcomes.map { outcome in
                    .object([
                        "table": .string(outcome.table),
                        "purged": .bool(!outcome.refused && !dryRun),
                        "refused": .bool(outcome.refused),
                        "pendingOperations": .count(outcome.pendingOperations),
                        "rows": .count(outcome.summary.rows),
                        "operations": .count(outcome.summary.operations),
                        "errors": .count(outcome.summary.errors),
                        "tokens": .count(outcome.summary.tokens),
                    ])
                }),
        ]
    }

    private func text(_ outcomes: [TableOutcome]) -> String {
        if outcomes.isEmpty { return stale ? "no stale tables" : "nothing to purge" }
        return outcomes.map { outcome in
            let counts =
                "\(outcome.summary.rows) row(s), \(outcome.summary.operations) operation(s), "
                + "\(outcome.summary.errors) error(s), \(outcome.summary.tokens) token(s)"
            if outcome.refused {
                return "refused \(outcome.table): \(outcome.pendingOperations) pending operation(s)"
                    + (dryRun ? " (forced, it would remove \(counts))" : "")
            }
            return (dryRun ? "would purge \(outcome.table): " : "purged \(outcome.table): ") + counts
        }.joined(separator: "\n")
    }
}
