import Foundation
@_spi(SyncTablesTools) import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// The blob bookkeeping in a SQLite store, in tables clients cannot reach (see `TableName`):
///
/// - `__blob_references`: `{"id", "sha256", "tableName", "rowId", "scope"}`, one row per live row and blob it
///   references, written in the row write's transaction;
/// - `__blob_uploaders`: `{"id", "sha256", "uploader", "uploadedAt"}`, one row per blob and uploader;
/// - `__blobs`: `{"id": <sha256>, "keptAt"}`, when the blob was last uploaded or found referenced by the sweeper.
enum SQLiteBlobTables {
    static let references = TableDefinition(name: "__blob_references", indexes: [["sha256"], ["tableName", "rowId"]])
    static let uploaders = TableDefinition(name: "__blob_uploaders", indexes: [["sha256"]])
    static let blobs = TableDefinition(name: "__blobs", indexes: [["keptAt"]])

    static func defineAll(in tx: any StoreTransaction) throws {
        for definition in [references, uploaders, blobs] { try tx.defineTable(definition) }
    }

    /// Replaces the references of one row with those of the row as written (`nil`: removed), in the write's
    /// transaction; a blob the write newly references must still be known (see ``BlobReferencing``).
    static func replaceReferences(
        table: String, id: String, existing: JSONObject?, written: JSONObject?, referencing: BlobReferencing,
        in tx: any StoreTransaction
    ) throws {
        guard referencing.indexes(table) else { return }
        try defineAll(in: tx)
        let keptAt = referencing.clock.now().millisecondsSince1970
        for added in referencing.added(from: existing, to: written, table: table) {
            guard var blob = try tx.lookup(table: blobs.name, id: added.blob.hex) else {
                throw BlobReferencing.notStored(added, table: table)
            }
            blob["keptAt"] = .integer(keptAt)
            try tx.upsert(table: blobs.name, items: [blob])
        }
        _ = try tx.delete(StoreQuery(table: references.name, filter: rowFilter(table: table, id: id)))
        let rows = referencing.references(of: written, table: table).map { reference in
            JSONObject([
                "id": .string(referenceID(table: table, id: id, blob: reference.blob)),
                "sha256": .string(reference.blob.hex), "tableName": .string(table), "rowId": .string(id),
                "scope": reference.scope.map(JSONValue.string) ?? .null,
            ])
        }
        if !rows.isEmpty { try tx.upsert(table: references.name, items: rows) }
    }

    /// Forgets every reference (test controls remove every row).
    static func removeAllReferences(in tx: any StoreTransaction) throws {
        try defineAll(in: tx)
        _ = try tx.delete(StoreQuery(table: references.name))
    }

    static func recordUpload(of blob: BlobHash, by uploader: String, at time: Date, in tx: any StoreTransaction)
        throws
    {
        try defineAll(in: tx)
        let milliseconds = JSONValue.integer(time.millisecondsSince1970)
        try tx.upsert(
            table: uploaders.name,
            items: [
                JSONObject([
                    "id": .string(blob.hex + uploader), "sha256": .string(blob.hex), "uploader": .string(uploader),
                    "uploadedAt": milliseconds,
                ])
            ])
        try tx.upsert(table: blobs.name, items: [JSONObject(["id": .string(blob.hex), "keptAt": milliseconds])])
    }

    static func mayRead(_ blob: BlobHash, uploader: String, scopes: [BlobReadScope], in tx: any StoreTransaction)
        throws -> Bool
    {
        try defineAll(in: tx)
        if try tx.lookup(table: uploaders.name, id: blob.hex + uploader) != nil { return true }
        let readable = scopes.map { scope -> FilterExpression in
            let table = equal("tableName", .string(scope.table))
            guard let value = scope.scope else { return table }
            return .and(table, equal("scope", .string(value)))
        }
        guard let first = readable.first else { return false }
        let anyScope = readable.dropFirst().reduce(first) { .or($0, $1) }
        let query = StoreQuery(
            table: references.name, filter: .and(equal("sha256", .string(blob.hex)), anyScope), limit: 1)
        return try tx.count(query) > 0
    }

    /// Takes up to `limit` blobs kept before `cutoff`: forgets those no live row references (and returns them),
    /// and keeps the referenced ones another horizon, so the next step looks at others.
    static func forgetUnreferenced(before cutoff: Date, now: Date, limit: Int, in tx: any StoreTransaction) throws
        -> [BlobHash]
    {
        try defineAll(in: tx)
        let candidates = try tx.read(
            StoreQuery(
                table: blobs.name,
                filter: .comparison(.lessThan, .property("keptAt"), .value(.integer(cutoff.millisecondsSince1970))),
                limit: limit))
        var forgotten: [BlobHash] = []
        for var candidate in candidates {
            guard case .string(let hex)? = candidate["id"], let blob = BlobHash(hex) else { continue }
            let referenced = try tx.count(
                StoreQuery(table: references.name, filter: equal("sha256", .string(hex)), limit: 1))
            if referenced > 0 {
                candidate["keptAt"] = .integer(now.millisecondsSince1970)
                try tx.upsert(table: blobs.name, items: [candidate])
            } else {
                _ = try tx.delete(table: blobs.name, ids: [hex])
                _ = try tx.delete(StoreQuery(table: uploaders.name, filter: equal("sha256", .string(hex))))
                forgotten.append(blob)
            }
        }
        return forgotten
    }

    private static func rowFilter(table: String, id: String) -> FilterExpression {
        .and(equal("tableName", .string(table)), equal("rowId", .string(id)))
    }

    private static func equal(_ property: String, _ value: JSONValue) -> FilterExpression {
        .comparison(.equal, .property(property), .value(value))
    }

    /// Lengths first, so no table and id pair spells another's.
    private static func referenceID(table: String, id: String, blob: BlobHash) -> String {
        "\(table.utf8.count):\(table)\(id.utf8.count):\(id)\(blob.hex)"
    }
}
