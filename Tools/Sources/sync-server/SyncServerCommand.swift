import ArgumentParser

/// `sync-server`: the SyncTables reference backend. Without a subcommand it serves (``ServeCommand``), so
/// `sync-server --port 8080` works as it always has.
@main
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server",
        abstract: "Serve sync tables over HTTP (Azure Mobile Apps table protocol v2).",
        discussion: """
            Without a subcommand, sync-server serves: 'sync-server --port 8080' is 'sync-server serve --port 8080' \
            (see 'sync-server serve --help' for its options).
            """,
        subcommands: [ServeCommand.self, DevTokenCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
