#if SQLCipher
    import Foundation
    import Subprocess
    import SystemPackage
    import Testing

    /// Runs a command-line tool installed on the machine (`sqlcipher`, `sqlite3`) with a script on its input.
    struct CommandLineTool {
        struct Output {
            var status: Int32
            var standardOutput: String
            var standardError: String
        }

        let url: URL

        /// The tool from the usual binary directories; the test fails clearly when it is not installed.
        init(named name: String) throws {
            let candidates = ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { "\($0)/\(name)" }
            let path = try #require(
                candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                "\(name) is not installed (apt-get install \(name)); scripts/install-deps installs it")
            url = URL(fileURLWithPath: path)
        }

        /// Runs the `sqlcipher` tool on the file at `path`: the "Encrypted store" article's two statements for the
        /// fixtures' passphrase (key, page size), then `statements`.
        static func sqlcipher(on path: String, after statements: String) async throws -> Output {
            let script = """
                PRAGMA key = '\(Fixtures.passphrase)';
                PRAGMA cipher_page_size = 4096;
                \(statements)

                """
            return try await CommandLineTool(named: "sqlcipher").run([path], input: script)
        }

        func run(_ arguments: [String], input: String) async throws -> Output {
            let result = try await Subprocess.run(
                .path(FilePath(url.path)), arguments: Arguments(arguments), input: .string(input),
                output: .string(limit: 16 << 20), error: .string(limit: 16 << 20))
            let status: Int32 =
                switch result.terminationStatus {
                case .exited(let code): code
                case .signaled(let signal): 128 + signal
                }
            return Output(
                status: status, standardOutput: result.standardOutput, standardError: result.standardError)
        }
    }
#endif
