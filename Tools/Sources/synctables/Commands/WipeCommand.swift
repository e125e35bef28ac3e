import ArgumentParser
import Foundation
@_spi(SyncTablesTools) import SyncTables

/// `synctables wipe --yes`: what an app's sign-out does, from a script.
struct WipeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wipe",
        abstract: "Remove everything a user left in the store: every table's rows, the queue and the sync state.",
        discussion: """
            One transaction removes the rows of every table, every queued operation (dead ones included, \
            none is pushed), push errors, retry state, the operation history, every pull token and pull time \
            and the engine's backoff; a crash leaves all of it or none. Table definitions stay, so the next \
            pull of each table is a full pull. It needs --yes. While another process pushes the same store \
            it is refused with exit code 11, unless --wait: then it waits for that push to end.
            """
    )

    @OptionGroup var options: StoreOptions

    @Flag(help: "Confirm: without it nothing is removed and the command exits 64.")
    var yes = false

    @Flag(help: "Wait for a push of another process to end instead of refusing.")
    var wait = false

    func run() async throws {
        try await reportingFailures(options) {
            guard yes else {
                throw CommandFailure(
                    .usage,
                    "wipe removes every table's rows, the queue (unpushed changes included) and the sync state of "
                        + "\(options.store); nothing was changed. Run it again with --yes to confirm")
            }
            let summary = try await StoreSession.with(options) { session in
                try await session.context.wipe(waitingForSync: wait)
            }
            Output(options).emit(json(summary), text: text(summary))
        }
    }

    private func json(_ summary: WipeSummary) -> JSONObject {
        [
            "wiped": .bool(true),
            "tables": .array(summary.tables.map { .string($0) }),
            "rows": .count(summary.rows),
            "operations": .count(summary.operations),
            "deadOperations": .count(summary.deadOperations),
            "errors": .count(summary.errors),
            "tokens": .count(summary.tokens),
            "historyEntries": .count(summary.historyEntries),
        ]
    }

    private func text(_ summary: WipeSummary) -> String {
        "wiped \(summary.tables.count) table(s): \(summary.rows) row(s), \(summary.operations) operation(s) "
            + "(\(summary.deadOperations) dead), \(summary.errors) error(s), \(summary.tokens) token(s), "
            + "\(summary.historyEntries) history entries"
    }
}
