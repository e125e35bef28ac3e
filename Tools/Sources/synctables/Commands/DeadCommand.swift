import ArgumentParser
import Foundation
@_spi(SyncTablesTools) import SyncTables

/// `synctables dead`: dead-lettered operations (see the sync engine), and what to do with them.
struct DeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead",
        abstract: "List dead-lettered operations, or retry, discard or revert them.",
        discussion: """
            The sync engine dead-letters an operation the server refuses for good (400, 403, 404, 422, …), \
            one that failed transiently too often, and a conflict no policy resolved. Dead operations are not \
            pushed and block nothing but the children held for a dead insert (listed with it); their items are \
            left alone by pulls until they are handled here.
            """,
        subcommands: [DeadListCommand.self, DeadRetryCommand.self, DeadDiscardCommand.self, DeadRevertCommand.self],
        defaultSubcommand: DeadListCommand.self
    )

    static func json(_ dead: DeadOperation) -> JSONObject {
        [
            "operationId": .string(dead.id),
            "kind": .string(dead.operation.kind.rawValue),
            "table": .string(dead.table),
            "itemId": .string(dead.itemId),
            "status": .optional(dead.error?.status),
            "message": .optional(dead.error?.message),
            "attempts": .array(
                dead.attempts.map { attempt in
                    .object([
                        "at": .string(attempt.at.formatted(.iso8601)), "status": .optional(attempt.status),
                        "message": .optional(attempt.message),
                    ])
                }),
            "heldChildren": .array(dead.heldChildren.map { .object(ParentHoldOutput.json(child: $0)) }),
        ]
    }

    /// One line per dead operation, then one indented line per child held for it.
    static func text(_ dead: DeadOperation) -> String {
        let status = dead.error?.status.map { "HTTP \($0)" } ?? "no response"
        var lines = [
            "\(dead.id)  \(dead.table)  \(dead.itemId)  \(dead.operation.kind)  \(status)  "
                + "\(dead.attempts.count) attempt(s)  \(dead.error?.message ?? "")"
        ]
        if !dead.heldChildren.isEmpty {
            lines.append("  holds \(dead.heldChildren.count) child operation(s) until it is pushed:")
            lines += dead.heldChildren.map { "    \($0.id)  \($0.table)  \($0.itemId)  \($0.kind)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// `synctables dead list`.
struct DeadListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List dead operations in queue order: operation id, table, item id, kind, last status, attempts, "
            + "and the children a dead insert holds."
    )

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingFailures(options) {
            let dead = try await StoreSession.with(options) { try await $0.context.deadOperations() }
            let json: JSONObject = ["operations": .array(dead.map { .object(DeadCommand.json($0)) })]
            let text = dead.isEmpty ? "no dead operations" : dead.map(DeadCommand.text).joined(separator: "\n")
            Output(options).emit(json, text: text)
        }
    }
}

/// The operations a `dead` subcommand acts on: some ids, or all with `--all`.
struct DeadSelection: ParsableArguments {
    @Argument(help: ArgumentHelp("Operation ids (see `synctables dead list`).", valueName: "operation-id"))
    var ids: [String] = []

    @Flag(help: "Every dead operation.")
    var all = false

    func validate() throws {
        if ids.isEmpty != all { throw ValidationError("name operation ids, or pass --all (not both)") }
    }

    var selected: Set<String>? { all ? nil : Set(ids) }
}

/// `synctables dead retry`.
struct DeadRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Put dead operations back in the queue; the next push sends them.")

    @OptionGroup var options: StoreOptions
    @OptionGroup var selection: DeadSelection

    func run() async throws {
        try await reportingFailures(options) {
            let count = try await StoreSession.with(options) {
                try await $0.context.retryDeadOperations(ids: selection.selected)
            }
            DeadCount.report(count, "retried", options)
        }
    }
}

/// `synctables dead discard`.
struct DeadDiscardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Drop dead operations and the local rows they would have written (needs --yes).",
        discussion: """
            A dead insert that holds children (see `synctables dead list`) is not discarded alone: its children \
            would wait forever for a parent that never reaches the server. Pass --with-children to discard them \
            too, or retry the parent instead.
            """)

    @OptionGroup var options: StoreOptions
    @OptionGroup var selection: DeadSelection

    @Flag(help: "Confirm that the local changes are to be given up.")
    var yes = false

    @Flag(help: "Also discard the operations a discarded insert holds (its children, and theirs in turn).")
    var withChildren = false

    func validate() throws {
        if !yes { throw ValidationError("discarding loses the local changes; pass --yes to confirm") }
    }

    func run() async throws {
        try await reportingFailures(options) {
            let count = try await StoreSession.with(options) {
                try await $0.context.discardDeadOperations(ids: selection.selected, includingChildren: withChildren)
            }
            DeadCount.report(count, "discarded", options)
        }
    }
}

/// `synctables dead revert`.
struct DeadRevertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Drop a dead operation's local change and store the server's current copy of its item.")

    @OptionGroup var options: StoreOptions
    @OptionGroup var server: ServerOptions

    @Argument(help: ArgumentHelp("The operation's id (see `synctables dead list`).", valueName: "operation-id"))
    var id: String

    func run() async throws {
        try await reportingFailures(options) {
            let client = try ServerConnection.client(server)
            try await StoreSession.with(options, client: client) {
                try await $0.context.revertToServer(operationId: id)
            }
            Output(options).emit(["reverted": .string(id)], text: "reverted \(id) to the server's copy")
        }
    }
}

/// Reports how many dead operations a command changed. (Naming an id that is not dead fails earlier, in
/// the library, with nothing changed.)
enum DeadCount {
    static func report(_ count: Int, _ verb: String, _ options: StoreOptions) {
        Output(options).emit(["count": .integer(Int64(count))], text: "\(verb) \(count) dead operation(s)")
    }
}
