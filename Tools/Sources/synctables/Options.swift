import ArgumentParser
import Foundation

/// The options every command takes: the store, its key, output format and lock patience.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The store file (an SQLiteStore or EncryptedSQLiteStore).", valueName: "path"))
    var store: String

    @Option(help: ArgumentHelp("The key of an encrypted store (or set SYNCTABLES_KEY).", valueName: "key"))
    var key: String?

    @Option(help: ArgumentHelp("A file whose first line is the key of an encrypted store.", valueName: "path"))
    var keyFile: String?

    @Option(help: ArgumentHelp("Milliseconds to wait for another process's lock on the store.", valueName: "ms"))
    var busyTimeout: Int32 = 5_000

    @Flag(help: "Print one JSON object on stdout instead of text.")
    var json = false

    @Flag(help: "Print nothing on success; errors still go to stderr.")
    var quiet = false

    func validate() throws {
        if key != nil && keyFile != nil { throw ValidationError("give either --key or --key-file, not both") }
        if busyTimeout < 0 { throw ValidationError("--busy-timeout must not be negative") }
    }

    /// The key from `--key`, `--key-file` or `SYNCTABLES_KEY`, in that order; `nil` for a plain store.
    func resolvedKey() throws(CommandFailure) -> String? {
        if let key { return key }
        if let keyFile {
            guard let text = try? String(contentsOfFile: keyFile, encoding: .utf8) else {
                throw CommandFailure(.usage, "cannot read the key file \(keyFile)")
            }
            let firstLine = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !firstLine.isEmpty else { throw CommandFailure(.usage, "the key file \(keyFile) is empty") }
            return firstLine
        }
        if let environment = ProcessInfo.processInfo.environment["SYNCTABLES_KEY"], !environment.isEmpty {
            return environment
        }
        return nil
    }
}

/// The options of commands that talk to a server.
struct ServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The server's base URL (or set SYNCTABLES_SERVER).", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Sent as X-ZUMO-AUTH (or set SYNCTABLES_AUTH_TOKEN).", valueName: "token"))
    var authToken: String?

    /// The server URL from `--server` or `SYNCTABLES_SERVER`.
    func resolvedURL() throws(CommandFailure) -> URL {
        let environment = ProcessInfo.processInfo.environment
        guard let text = server ?? environment["SYNCTABLES_SERVER"], !text.isEmpty else {
            throw CommandFailure(.usage, "this command needs a server: pass --server URL or set SYNCTABLES_SERVER")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CommandFailure(.usage, "--server '\(text)' is not an http or https URL")
        }
        return url
    }

    /// The token from `--auth-token` or `SYNCTABLES_AUTH_TOKEN`.
    var resolvedToken: String? {
        authToken ?? ProcessInfo.processInfo.environment["SYNCTABLES_AUTH_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
