import Foundation
import Subprocess
import Testing

/// The README's Swift code compiles as written: its blocks are built in a scratch package that depends on
/// this one by path.
///
/// A block is complete unless the HTML comment on the line before it says otherwise:
/// `<!-- snippet: manifest -->` is the scratch package's `Package.swift` (its `../SyncTables` path replaced
/// by this checkout's), `<!-- snippet: sqlcipher -->` is compiled in SQLCipher builds only, and
/// `<!-- snippet: fragment -->` is not compiled.
@Suite("README snippets") struct ReadmeSnippetTests {
    @Test(.timeLimit(.minutes(30)))
    func everySwiftBlockOfTheReadmeCompiles() async throws {
        let root = RepositoryRoot.url
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = ReadmeBlock.swiftBlocks(in: readme)
        let manifest = try #require(blocks.first { $0.kind == "manifest" }, "the README has no manifest block")
        #if SQLCipher
            let compiled = blocks.filter { $0.kind == "complete" || $0.kind == "sqlcipher" }
            let products = ["SyncTables", "SyncTablesSQLCipher"]
            let traits = #", traits: ["SQLCipher"]"#
            let buildFolder = ".build-sqlcipher"
        #else
            let compiled = blocks.filter { $0.kind == "complete" }
            let products = ["SyncTables"]
            let traits = ""
            let buildFolder = ".build"
        #endif
        try #require(!compiled.isEmpty, "the README has no complete Swift block")

        // Given a scratch package made of the README's manifest and blocks (kept between runs, so a second
        // run only rebuilds what changed)
        let package = root.appendingPathComponent(buildFolder).appendingPathComponent("readme-snippets")
        let sources = package.appendingPathComponent("Sources")
        try? FileManager.default.removeItem(at: sources)
        var extraTargets = ""
        for (index, block) in compiled.enumerated() {
            let name = "ReadmeBlock\(index + 1)"
            let folder = sources.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let header = "// README.md line \(block.line)\n"
            try (header + block.code).write(
                to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
            let dependencies = products.map { #".product(name: "\#($0)", package: "SyncTables")"# }
            extraTargets +=
                #"        .executableTarget(name: "\#(name)", dependencies: [\#(dependencies.joined(separator: ", "))]),"#
            extraTargets += "\n"
        }
        let manifestText = try Self.scratchManifest(
            from: manifest.code, root: root, traits: traits, extraTargets: extraTargets)
        // The manifest's own target gets the first block, as a reader's app would.
        for target in try Self.executableTargetNames(in: manifest.code) {
            let folder = sources.appendingPathComponent(target)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try compiled[0].code.write(
                to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        }
        try manifestText.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        // When it is built (dependencies resolve through the same package URLs, and so the same local
        // mirror, as this package)
        let result = try await Subprocess.run(
            .name("swift"), arguments: ["build", "--package-path", package.path],
            output: .string(limit: 16 << 20), error: .string(limit: 16 << 20))

        // Then every block compiles
        let output = result.standardOutput + result.standardError
        let errors = output.split(separator: "\n").filter { $0.contains("error:") }.prefix(20)
        #expect(
            result.terminationStatus.isSuccess,
            "the README's Swift blocks do not compile:\n\(errors.joined(separator: "\n"))\n\(output.suffix(2000))")
    }

    /// The README's manifest with its path pointing at this checkout and the blocks' targets added.
    static func scratchManifest(from manifest: String, root: URL, traits: String, extraTargets: String) throws
        -> String
    {
        let placeholder = try #require(
            manifest.range(of: #"\.package\(path: "\.\./SyncTables"\)"#, options: .regularExpression),
            "the manifest block has no .package(path: \"../SyncTables\") line")
        var text = manifest
        text.replaceSubrange(placeholder, with: #".package(name: "SyncTables", path: "\#(root.path)"\#(traits))"#)
        let targets = try #require(text.range(of: "targets: [\n"), "the manifest block has no targets list")
        text.insert(contentsOf: extraTargets, at: targets.upperBound)
        return text
    }

    /// The names of the executable targets a manifest declares.
    static func executableTargetNames(in manifest: String) throws -> [String] {
        let pattern = try Regex(#"\.executableTarget\(\s*name: "([A-Za-z0-9_]+)""#)
        return manifest.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
    }
}

/// One fenced Swift block of a Markdown file.
struct ReadmeBlock {
    /// `complete`, or what the `<!-- snippet: … -->` comment before the block says.
    let kind: String
    /// The 1-based line of the opening fence.
    let line: Int
    let code: String

    static func swiftBlocks(in markdown: String) -> [ReadmeBlock] {
        var blocks: [ReadmeBlock] = []
        var current: (kind: String, line: Int, lines: [String])?
        var previous = ""
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            if var block = current {
                if line.hasPrefix("```") {
                    blocks.append(
                        ReadmeBlock(
                            kind: block.kind, line: block.line, code: block.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    block.lines.append(line)
                    current = block
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```swift" {
                var kind = "complete"
                if let range = previous.range(of: #"<!-- snippet: ([a-z]+) -->"#, options: .regularExpression) {
                    kind = String(previous[range].dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
                }
                current = (kind, index + 1, [])
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { previous = line }
        }
        return blocks
    }
}

/// The checkout this test was built from.
/// The repository's root folder (this file is in Tools/Tests/SynctablesCLITests/Documentation).
enum RepositoryRoot {
    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
