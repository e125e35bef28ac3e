#if SQLCipher
    import Foundation
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

        func run(_ arguments: [String], input: String) throws -> Output {
            let process = Process()
            process.executableURL = url
            process.arguments = arguments
            let standardInput = Pipe()
            let standardOutput = Pipe()
            let standardError = Pipe()
            process.standardInput = standardInput
            process.standardOutput = standardOutput
            process.standardError = standardError
            try process.run()
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            try standardInput.fileHandleForWriting.close()
            let outputData = standardOutput.fileHandleForReading.readDataToEndOfFile()
            let errorData = standardError.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Output(
                status: process.terminationStatus,
                standardOutput: String(decoding: outputData, as: UTF8.self),
                standardError: String(decoding: errorData, as: UTF8.self))
        }
    }
#endif
