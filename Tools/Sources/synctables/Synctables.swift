import ArgumentParser
import Foundation
@_spi(SyncTablesTools) import SyncTables

/// The `synctables` root command: maintenance of SyncTables stores from scripts.
struct Synctables: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synctables",
        abstract: """
            Inspect and maintain a SyncTables store: status, queue, errors, dead operations, history, push, pull, \
            purge, sync, wipe.
            """,
        discussion: """
            Every command takes --store PATH and prints text, or one JSON object with --json. \
            Errors are one line on stderr.

            \(ExitStatus.helpTable)
            """,
        subcommands: [
            StatusCommand.self, QueueCommand.self, ErrorsCommand.self, DeadCommand.self, PushCommand.self,
            PullCommand.self, PurgeCommand.self, SyncCommand.self, HistoryCommand.self, WipeCommand.self,
        ]
    )

    /// The first argument when it is neither an option nor the name of a subcommand.
    static func unknownSubcommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        return names.contains(first) ? nil : first
    }

    /// Parses `arguments`, runs the command and returns the process's exit code, having reported any failure.
    static func runAndReport(_ arguments: [String]) async -> Int32 {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .success {
                // --help, `help <command>`: ArgumentParser prints them and exits 0.
                exit(withError: error)
            }
            // ArgumentParser may add hint lines; the first line says what is wrong.
            var firstLine = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid usage"
            if let unknown = unknownSubcommand(in: arguments) { firstLine = "unknown subcommand '\(unknown)'" }
            Output.writeLine("synctables: error: \(firstLine) (see 'synctables --help')", to: .standardError)
            return ExitStatus.usage.rawValue
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
            return 0
        } catch {
            // `help` and `--help` parse into a command that "fails" with a clean exit carrying the text.
            if exitCode(for: error) == .success { exit(withError: error) }
            let failure = CommandFailure(classifying: error)
            Output.writeLine("synctables: error: \(failure.message)", to: .standardError)
            return failure.status.rawValue
        }
    }
}
