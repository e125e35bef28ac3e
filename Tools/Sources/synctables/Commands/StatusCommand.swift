import ArgumentParser
import Foundation
@_spi(SyncTablesTools) import SyncTables

/// `synctables status`: tables, queue, errors, pull state, schema version and file size.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show every table with its rows, pending operations (and those waiting for a parent) and "
            + "errors, each query id's token and last pull time, the schema version and the file size."
    )

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingFailures(options) {
            let status = try await StoreSession.with(options) { try await $0.context.overview() }
            let fileBytes = Self.size(of: options.store)
            let walBytes = Self.size(of: options.store + "-wal")
            Output(options).emit(
                Self.json(status, path: options.store, fileBytes: fileBytes, walBytes: walBytes),
                text: Self.text(status, path: options.store, fileBytes: fileBytes, walBytes: walBytes))
        }
    }

    private static func size(of path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    static func json(_ status: StoreOverview, path: String, fileBytes: Int, walBytes: Int) -> JSONObject {
        let tables: [JSONValue] = status.tables.map { table in
            .object([
                "name": .string(table.name),
                "rows": .count(table.rows),
                "pendingOperations": .count(table.pendingOperations),
                "heldOperations": .count(table.heldOperations),
                "errors": .count(table.pushErrors),
                "lastPull": .time(table.lastPull),
                "pulls": .array(
                    table.pulls.map { pull in
                        .object([
                            "queryId": .optional(pull.queryId),
                            "deltaToken": .time(pull.deltaToken),
                            "lastPull": .time(pull.lastPull),
                        ])
                    }),
            ])
        }
        return [
            "store": .object([
                "path": .string(path),
                "fileBytes": .count(fileBytes),
                "walBytes": .count(walBytes),
                "schemaVersion": .count(status.schemaVersion),
            ]),
            "pendingOperations": .count(status.pendingOperations),
            "heldOperations": .count(status.tables.reduce(0) { $0 + $1.heldOperations }),
            "errors": .count(status.pushErrors),
            "tables": .array(tables),
            "attachments": .object([
                "filesOnDevice": .count(status.attachments.filesOnDevice),
                "bytesOnDevice": .integer(status.attachments.bytesOnDevice),
                "awaitingUpload": .count(status.attachments.awaitingUpload),
                "bytesAwaitingUpload": .integer(status.attachments.bytesAwaitingUpload),
                "uploadsInProgress": .count(status.attachments.uploadsInProgress),
                "notOnDevice": .count(status.attachments.notOnDevice),
            ]),
        ]
    }

    static func text(_ status: StoreOverview, path: String, fileBytes: Int, walBytes: Int) -> String {
        let held = status.tables.reduce(0) { $0 + $1.heldOperations }
        var lines = [
            "store \(path): \(fileBytes) bytes (+\(walBytes) in the WAL), schema version \(status.schemaVersion)",
            "\(status.pendingOperations) pending operation(s)\(heldText(held)), \(status.pushErrors) push error(s)",
        ]
        if status.tables.isEmpty { lines.append("no tables") }
        for table in status.tables {
            lines.append(
                "table \(table.name): \(table.rows) row(s), \(table.pendingOperations) pending"
                    + "\(heldText(table.heldOperations)), \(table.pushErrors) error(s), "
                    + "last pull \(table.lastPull?.iso8601 ?? "never")")
            for pull in table.pulls {
                let name = pull.queryId.map { "query id '\($0)'" } ?? "full pull"
                lines.append(
                    "  \(name): token \(pull.deltaToken?.iso8601 ?? "none"), "
                        + "last pull \(pull.lastPull?.iso8601 ?? "never")")
            }
        }
        let files = status.attachments
        if files != AttachmentOverview() {
            lines.append(
                "attachments: \(files.filesOnDevice) file(s) on the device (\(files.bytesOnDevice) bytes), "
                    + "\(files.awaitingUpload) waiting for upload (\(files.bytesAwaitingUpload) bytes, "
                    + "\(files.uploadsInProgress) cut short), \(files.notOnDevice) not downloaded")
        }
        if held > 0 { lines.append("some operations wait for their parent's insert; synctables queue shows which") }
        return lines.joined(separator: "\n")
    }

    /// ` (2 waiting for a parent)`, or nothing.
    private static func heldText(_ count: Int) -> String {
        count > 0 ? " (\(count) waiting for a parent)" : ""
    }
}
