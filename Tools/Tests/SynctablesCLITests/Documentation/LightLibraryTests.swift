import Foundation
import Subprocess
import SyncTables
import Testing

/// An app that adds the library resolves a handful of packages and compiles no NIO: the server's
/// dependencies stay in the Tools package.
@Suite("A light library for apps") struct LightLibraryTests {
    @Test(.timeLimit(.minutes(15)))
    func anAppDependingOnTheLibraryResolvesFewPackagesAndCompilesNoNIO() async throws {
        // Given an app package that depends on the library by path, as the README shows
        let root = RepositoryRoot.url
        let package = root.appendingPathComponent(".build/light-library-app")
        let sources = package.appendingPathComponent("Sources/App")
        // A fresh build each time, so the log shows every module compiled (a second pass would build nothing).
        try? FileManager.default.removeItem(at: package.appendingPathComponent(".build"))
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "App",
                platforms: [.macOS(.v14), .iOS(.v17)],
                dependencies: [.package(name: "SyncTables", path: "\(root.path)")],
                targets: [
                    .executableTarget(name: "App", dependencies: [.product(name: "SyncTables", package: "SyncTables")])
                ]
            )
            """
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let code = "import SyncTables\n\nprint(try SQLiteStore(path: \":memory:\"))\n"
        try code.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

        // When its dependencies are resolved and it is built
        let dependencies = try await Subprocess.run(
            .name("swift"),
            arguments: ["package", "--package-path", package.path, "show-dependencies", "--format", "json"],
            output: .string(limit: 1 << 20), error: .string(limit: 1 << 20))
        let build = try await Subprocess.run(
            .name("swift"), arguments: ["build", "--package-path", package.path, "-v"],
            output: .string(limit: 64 << 20), error: .string(limit: 16 << 20))

        // Then it resolves at most four packages besides SyncTables, none of them NIO, and compiles no NIO
        #expect(dependencies.terminationStatus.isSuccess, "\(dependencies.standardError)")
        let tree = try JSONValue(parsing: Array(dependencies.standardOutput.utf8))
        // (The library itself is named after the folder it is cloned in.)
        let resolved = Self.identities(in: tree).subtracting([root.lastPathComponent.lowercased()])
        #expect(resolved.count <= 5, "resolved: \(resolved.sorted())")
        #expect(
            resolved.isSubset(of: ["swift-log", "swift-metrics", "swift-crypto", "swift-asn1", "yams"]),
            "resolved: \(resolved.sorted())")
        let output = build.standardOutput + build.standardError
        #expect(build.terminationStatus.isSuccess, "\(output.suffix(2000))")
        #expect(!output.contains("-module-name NIOCore"), "the app compiled NIOCore")
        #expect(output.contains("-module-name SyncTables "), "the verbose build log names no SyncTables module")
    }

    /// Every package identity in `swift package show-dependencies --format json`'s tree.
    private static func identities(in node: JSONValue) -> Set<String> {
        guard case .object(let object) = node, case .array(let children)? = object["dependencies"] else { return [] }
        var found: Set<String> = []
        for child in children {
            if case .object(let fields) = child, case .string(let identity)? = fields["identity"] {
                found.insert(identity.lowercased())
            }
            found.formUnion(identities(in: child))
        }
        return found
    }
}
