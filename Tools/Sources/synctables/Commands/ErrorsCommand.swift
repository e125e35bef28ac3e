import ArgumentParser
@_spi(SyncTablesTools) import SyncTables

/// `synctables errors`: the stored push errors, and resolving one of them.
struct ErrorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errors",
        abstract: "List push errors, or resolve one.",
        subcommands: [ErrorsListCommand.self, ErrorsResolveCommand.self],
        defaultSubcommand: ErrorsListCommand.self
    )

    static func json(_ error: TableOperationError) -> JSONObject {
        [
            "id": .string(error.id),
            "operationId": .string(error.operationId),
            "table": .string(error.table),
            "itemId": .string(error.itemId),
            "kind": .string(error.kind.rawValue),
            "status": .optional(error.status),
            "conflict": .bool(error.isConflict),
            "message": .optional(error.message),
            "clientItem": error.clientItem.map { .object($0) } ?? .null,
            "serverItem": error.serverItem.map { .object($0) } ?? .null,
        ]
    }

    /// The errors as a table with a header row.
    static func text(_ errors: [TableOperationError]) -> String {
        TextTable(
            header: ["ID", "TABLE", "ITEM ID", "KIND", "STATUS", "MESSAGE"],
            rows: errors.map { error in
                [
                    error.id, error.table, error.itemId, "\(error.kind)",
                    error.status.map { "HTTP \($0)" } ?? "no response", error.message ?? "",
                ]
            }
        ).text
    }
}

/// `synctables errors list`.
struct ErrorsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored push errors, oldest first: id, table, item id, kind, HTTP status, message."
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Only the errors of this table.", valueName: "table"))
    var table: String?

    func run() async throws {
        try await reportingFailures(options) {
            let errors = try await StoreSession.with(options) { try await $0.context.pushErrors(table: table) }
            let json: JSONObject = ["errors": .array(errors.map { .object(ErrorsCommand.json($0)) })]
            let text = errors.isEmpty ? "no push errors" : ErrorsCommand.text(errors)
            Output(options).emit(json, text: text)
        }
    }
}

/// `synctables errors resolve ID --discard|--take-server|--retry`.
struct ErrorsResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve one push error: discard the local change, take the server's item, or keep and retry."
    )

    /// The three ways out of a push error.
    enum Resolution: String, EnumerableFlag {
        case discard
        case takeServer
        case retry

        static func help(for value: Resolution) -> ArgumentHelp? {
            switch value {
            case .discard: "Drop the operation and delete the local row."
            case .takeServer: "Drop the operation and store the server's item locally (server wins)."
            case .retry: "Keep the operation with the server's version, so the next push overwrites it (client wins)."
            }
        }
    }

    @OptionGroup var options: StoreOptions

    @Argument(help: ArgumentHelp("The error's id (see `synctables errors list`).", valueName: "error-id"))
    var errorId: String

    @Flag(exclusivity: .exclusive)
    var resolution: Resolution

    func run() async throws {
        try await reportingFailures(options) {
            let error = try await StoreSession.with(options) { session in
                let context = session.context
                guard let error = try await context.pushErrors().first(where: { $0.id == errorId }) else {
                    throw CommandFailure(
                        .errorNotFound, "no push error has id '\(errorId)' (see `synctables errors list`)")
                }
                try await Self.apply(resolution, to: error, context: context)
                return error
            }
            let json: JSONObject = [
                "resolved": .object(ErrorsCommand.json(error)),
                "resolution": .string(resolution.rawValue),
            ]
            Output(options).emit(
                json, text: "resolved \(error.id) (\(error.table) '\(error.itemId)') by \(resolution.rawValue)")
        }
    }

    private static func apply(_ resolution: Resolution, to error: TableOperationError, context: SyncContext)
        async throws
    {
        switch resolution {
        case .discard:
            try await error.cancelAndDiscardItem()
        case .takeServer:
            guard let serverItem = error.serverItem else {
                throw CommandFailure(
                    .usage, "error '\(error.id)' carries no server item; use --discard or --retry instead")
            }
            try await error.cancelAndUpdateItem(serverItem)
        case .retry:
            // The local row (or, for a delete, the item as sent) with the server's version, so the
            // next push's If-Match matches and the local change wins.
            let local = try await context.store.lookup(table: error.table, id: error.itemId)
            guard var item = local ?? error.clientItem else {
                throw CommandFailure(.failure, "error '\(error.id)' has no local item to retry with")
            }
            if let version = error.serverItem?["version"] { item["version"] = version }
            try await error.keepOperation(updatingItem: item)
        }
    }
}
