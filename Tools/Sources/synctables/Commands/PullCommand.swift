import ArgumentParser
@_spi(SyncTablesTools) import SyncTables

/// `synctables pull TABLE`: a full or incremental pull, optionally filtered in OData `$filter` syntax.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Pull a table's server records into the store (pushing its pending operations first).",
        discussion: "--filter takes OData $filter text, parsed by the same parser sync-server uses, e.g. "
            + "\"complete eq false and startswith(text, 'Buy')\". With --query-id the pull is incremental."
    )

    @OptionGroup var options: StoreOptions
    @OptionGroup var server: ServerOptions

    @Argument(help: "The table to pull.")
    var table: String

    @Option(help: ArgumentHelp("Pull incrementally, remembering the newest updatedAt under this id.", valueName: "id"))
    var queryId: String?

    @Option(help: ArgumentHelp("Only records matching this OData $filter expression.", valueName: "odata"))
    var filter: String?

    @Option(help: ArgumentHelp("Records requested per page.", valueName: "n"))
    var pageSize: Int = 50

    func validate() throws {
        if pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
    }

    func run() async throws {
        try await reportingFailures(options) {
            let expression = try filter.map { try ODataFilterParser.parse($0) }
            let client = try ServerConnection.client(server)
            let summary = try await StoreSession.with(options, client: client) { session in
                if try await session.storedTableName(table) == nil {
                    try await StoreSession.requireServerTable(table, client: client)
                }
                let handle = try await session.context.table(JSONObject.self, named: table)
                let query = expression.map { handle.query().filter($0) }
                return try await handle.pull(query, queryId: queryId, options: PullOptions(pageSize: pageSize))
            }
            let json: JSONObject = [
                "table": .string(table),
                "queryId": .optional(queryId),
                "received": .count(summary.received),
                "upserted": .count(summary.upserted),
                "deleted": .count(summary.deleted),
                "skippedPending": .count(summary.skippedPending),
                "skippedInvalid": .count(summary.skippedInvalid),
                "requests": .count(summary.requests),
                "deltaToken": .time(summary.deltaToken),
            ]
            Output(options).emit(
                json,
                text: "pulled \(table): \(summary.received) record(s), \(summary.upserted) stored, "
                    + "\(summary.deleted) deleted, \(summary.skippedPending) skipped (pending local changes)")
        }
    }
}
