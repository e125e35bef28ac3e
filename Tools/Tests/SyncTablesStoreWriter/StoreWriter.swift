import Foundation
@_spi(SyncTablesTools) import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// A second "app" process for the multi-process tests: it opens a store file through a ``SyncContext`` and
/// writes items as an app would, checking every write by reading it back.
///
/// ```
/// sync-store-writer write <database-path> <table> <id-prefix> <count> <seed>
/// sync-store-writer discard <database-path> <table> <id-prefix> <count>
/// ```
///
/// It inserts `<count>` items `<id-prefix>-<n>`; after most inserts it updates an earlier item of its own
/// (a new value and, now and then, a property no item had before, so the table gains columns while other
/// processes write). It pauses for a random few milliseconds now and then (seeded, so a run can be
/// repeated). It exits 0 when every write succeeded and read back as written, and 1, with the first
/// failure on standard error, otherwise.
///
/// `discard` inserts `<count>` items `<id-prefix>-<n>` and discards each one's operation at once, so each
/// adds one entry to the store's operation history.
@main
struct StoreWriter {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if arguments.count == 5, arguments[0] == "discard", let count = Int(arguments[4]) {
                try await discard(path: arguments[1], table: arguments[2], prefix: arguments[3], count: count)
                return
            }
            guard arguments.count == 6, arguments[0] == "write", let count = Int(arguments[4]),
                let seed = UInt64(arguments[5])
            else { throw WriterFailure("usage: write <database-path> <table> <id-prefix> <count> <seed>") }
            try await write(path: arguments[1], table: arguments[2], prefix: arguments[3], count: count, seed: seed)
        } catch {
            FileHandle.standardError.write(Data("sync-store-writer: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func write(path: String, table name: String, prefix: String, count: Int, seed: UInt64)
        async throws
    {
        let store = try SQLiteStore(path: path)
        let context = try await SyncContext(store: store)
        let table = try await context.table(JSONObject.self, named: name)
        var random = SeededGenerator(seed: seed)
        for index in 0..<count {
            let id = "\(prefix)-\(index)"
            // Long enough to be kept in its column only, so reads depend on knowing every column.
            let item: JSONObject = [
                "id": .string(id), "n": .integer(Int64(index)),
                "text": .string("written by \(prefix) as item \(index)"),
            ]
            _ = try await table.insert(item)
            try await expect(table, id: id, property: "n", equals: .integer(Int64(index)))
            if index > 0, random.next() % 4 != 0 {
                let earlier = "\(prefix)-\(Int(random.next() % UInt64(index)))"
                var stored = try await table.lookup(id: earlier).orThrow("\(earlier) is missing")
                let value = JSONValue.string("updated by \(prefix) at step \(index)")
                stored["note"] = value
                // A property of its own now and then: the table gains a column while the others write.
                if random.next() % 16 == 0 { stored["extra\(random.next() % 6)"] = .integer(Int64(index)) }
                try await table.update(stored)
                try await expect(table, id: earlier, property: "note", equals: value)
            }
            if random.next() % 32 == 0 {
                try await Task.sleep(for: .milliseconds(Int(random.next() % 5)))
            }
        }
        try await context.close()
    }

    private static func discard(path: String, table name: String, prefix: String, count: Int) async throws {
        let context = try await SyncContext(store: try SQLiteStore(path: path))
        let table = try await context.table(JSONObject.self, named: name)
        for index in 0..<count {
            let id = "\(prefix)-\(index)"
            _ = try await table.insert(["id": .string(id)])
            let operation = try await context.pendingOperations(table: name).first { $0.itemId == id }
            try await context.discardPendingOperation(id: try operation.orThrow("no operation for \(id)").id)
        }
        try await context.close()
    }

    private static func expect(_ table: SyncTable<JSONObject>, id: String, property: String, equals value: JSONValue)
        async throws
    {
        let stored = try await table.lookup(id: id)
        guard stored?[property] == value else {
            throw WriterFailure("\(id) reads \(String(describing: stored?[property])) for \(property), wrote \(value)")
        }
    }
}

/// A failed check, with what was expected.
struct WriterFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Optional {
    fileprivate func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw WriterFailure(message) }
        return self
    }
}
