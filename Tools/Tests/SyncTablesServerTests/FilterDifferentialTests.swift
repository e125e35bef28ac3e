import Foundation
import Subprocess
import SystemPackage
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Compares the server's `$filter` parser with an independent one: the PyPI package `odata-query` (OData v4),
/// run through `scripts/odata-query-trees` (`scripts/install-deps` installs it). Both must build the same tree
/// for every generated filter, and that tree must be the one the generator meant.
@Suite("$filter against an independent OData parser")
struct FilterDifferentialTests {
    /// The repository root (this file is in Tools/Tests/SyncTablesServerTests).
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(.timeLimit(.minutes(3)))
    func generatedFiltersAndLongFlatChainsParseToTheSameTreesAsOdataQuery() async throws {
        var generator = DifferentialFilterGenerator(seed: 0x0DA7A)
        var filters = (0..<5_000).map { index in generator.boolean(depth: 2 + index % 5) }
        filters += [500, 500].enumerated().map { offset, count in
            let terms = (0..<count).map { "id eq 'id\($0)'" }
            let keyword = offset == 0 ? " or " : " and "
            let text = terms.joined(separator: keyword)
            let expression = (1..<count).reduce(FilterExpression.comparison(.equal, .property("id"), .value("id0"))) {
                let term = FilterExpression.comparison(.equal, .property("id"), .value(.string("id\($1)")))
                return offset == 0 ? .or($0, term) : .and($0, term)
            }
            return GeneratedFilter(expression: expression, v3: text, v4: text, level: offset == 0 ? 1 : 2)
        }

        let independent = try await Self.odataQueryTrees(filters.map(\.v4))
        try #require(independent.count == filters.count, "odata-query printed \(independent.count) trees")

        var disagreements: [String] = []
        for (filter, theirs) in zip(filters, independent) {
            let ours: String
            do {
                ours = "ok " + Self.tree(try ODataBridge.filter(filter.v3))
            } catch {
                ours = "error \(error)"
            }
            let meant = "ok " + Self.tree(filter.expression)
            if ours != theirs || ours != meant {
                disagreements.append("\(filter.v3)\n  v4:    \(filter.v4)\n  ours:  \(ours)\n  odata-query: \(theirs)")
            }
        }
        let firstFew = disagreements.prefix(5).joined(separator: "\n")
        #expect(disagreements.count == 0, "first disagreements:\n\(firstFew)")
    }

    /// Runs the Python script on the texts (one per line) and returns its lines; fails the test loudly when
    /// python3 or odata-query is missing.
    private static func odataQueryTrees(_ texts: [String]) async throws -> [String] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("filters-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: input) }
        try (texts.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let script = repository.appendingPathComponent("scripts/odata-query-trees").path
        let result: (succeeded: Bool, output: String, errors: String)
        do {
            let run = try await Subprocess.run(
                .name("python3"), arguments: [script, input.path], output: .string(limit: 64 << 20),
                error: .string(limit: 1 << 20))
            result = (run.terminationStatus.isSuccess, run.standardOutput, run.standardError)
        } catch {
            Issue.record("python3 could not be started (\(error)); run scripts/install-deps")
            throw error
        }
        try #require(result.succeeded, "odata-query-trees failed: \(result.errors); run scripts/install-deps")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The tree in the normalized form `scripts/odata-query-trees` prints.
    static func tree(_ expression: FilterExpression) -> String {
        switch expression {
        case .property(let name): return "(p \(name))"
        case .value(.null): return "null"
        case .value(.bool(let value)): return value ? "true" : "false"
        case .value(.integer(let value)): return "(i \(value))"
        case .value(.double(let value)):
            let bits = String(value.bitPattern, radix: 16)
            return "(f \(String(repeating: "0", count: 16 - bits.count))\(bits))"
        case .value(.string(let value)): return "(s \(value.utf8.map { hex($0) }.joined()))"
        case .value(let other): return "(unexpected \(other))"
        case .timestamp(let instant): return "(t \(instant.ticks))"
        case .not(let operand): return "(not \(tree(operand)))"
        case .negate(let operand): return "(neg \(tree(operand)))"
        case .and(let left, let right): return "(and \(tree(left)) \(tree(right)))"
        case .or(let left, let right): return "(or \(tree(left)) \(tree(right)))"
        case .comparison(let op, let left, let right): return "(\(op.rawValue) \(tree(left)) \(tree(right)))"
        case .arithmetic(let op, let left, let right): return "(\(op.rawValue) \(tree(left)) \(tree(right)))"
        case .function(let function, let arguments):
            return "(call \(function.rawValue)\(arguments.map { " " + tree($0) }.joined()))"
        case .isIn(let value, let list): return "(in \(tree(value))\(list.map { " " + tree($0) }.joined()))"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }
}
