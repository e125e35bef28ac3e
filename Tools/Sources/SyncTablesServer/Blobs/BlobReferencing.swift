import Foundation
import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// Which rows reference which blobs: the declared `attachment` columns of each table, and the column whose
/// value scopes its rows (the owner or claim column; none for `authenticated` and `read-only` tables).
///
/// The table storage keeps a row's references in the transaction that writes the row, so a blob is readable
/// through a row exactly while the row is live.
struct BlobReferencing: Sendable {
    /// One table's attachment columns and scope column.
    struct Table: Sendable, Equatable {
        let attachmentColumns: [String]
        let scopeColumn: String?
    }

    /// The tables with at least one attachment column, by name.
    let tables: [String: Table]
    /// The time a write keeps the blobs it newly references (see ``BlobReferenceStorage``).
    let clock: any SyncClock

    /// No table references blobs: development mode, where no references are kept.
    static let none = BlobReferencing(tables: [:], clock: SystemSyncClock())

    private init(tables: [String: Table], clock: any SyncClock) {
        self.tables = tables
        self.clock = clock
    }

    /// The tables of `declarations` that have attachment columns; ``none`` without declarations.
    init(declarations: TableDeclarations?, clock: any SyncClock) {
        var tables: [String: Table] = [:]
        for (name, declaration) in declarations?.tables ?? [:] {
            let columns = declaration.columns.filter { $0.value.type == .attachment }.keys.sorted()
            guard !columns.isEmpty else { continue }
            tables[name] = Table(attachmentColumns: columns, scopeColumn: declaration.access.stampedColumn)
        }
        self.init(tables: tables, clock: clock)
    }

    /// Whether rows of `table` may reference blobs (their writes maintain the index).
    func indexes(_ table: String) -> Bool {
        tables[table] != nil
    }

    /// The blobs a stored row references, with the row's scope value; none for a deleted or soft-deleted row
    /// (`nil`, or a tombstone), and none for a table without attachment columns.
    func references(of row: JSONObject?, table: String) -> [BlobReference] {
        guard let columns = tables[table], let row, !row.isTombstone else { return [] }
        let scope: String? =
            if let column = columns.scopeColumn, case .string(let value)? = row[column] { value } else { nil }
        var seen: Set<BlobHash> = []
        var references: [BlobReference] = []
        for column in columns.attachmentColumns {
            guard let blob = Self.blob(in: row[column]), seen.insert(blob).inserted else { continue }
            references.append(BlobReference(blob: blob, scope: scope, column: column))
        }
        return references
    }

    /// The references a write adds: those of the written row that the row did not have before.
    func added(from existing: JSONObject?, to written: JSONObject?, table: String) -> [BlobReference] {
        let before = Set(references(of: existing, table: table).map(\.blob))
        return references(of: written, table: table).filter { !before.contains($0.blob) }
    }

    /// The 422 of a write whose new reference names a blob that is no longer stored (the sweeper removed it
    /// after the write's check).
    static func notStored(_ reference: BlobReference, table: String) -> ServerError {
        BlobAccess.unreadable(column: reference.column, table: table, blob: reference.blob)
    }

    /// The blob an attachment value names; `nil` for `null`, a missing value or another shape.
    static func blob(in value: JSONValue?) -> BlobHash? {
        guard case .object(let attachment)? = value, case .string(let hash)? = attachment["sha256"] else {
            return nil
        }
        return BlobHash(hash)
    }
}

/// One row's reference to a blob, with the row's scope value (owner subject or claim value; `nil` for
/// tables every caller reads) and the attachment column that names it.
struct BlobReference: Sendable, Hashable {
    let blob: BlobHash
    let scope: String?
    let column: String
}
