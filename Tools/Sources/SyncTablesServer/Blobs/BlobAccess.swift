import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Who may read and upload blobs when tables are declared: blobs follow the access rules of the rows that
/// reference them (see <doc:Blobs>).
///
/// A caller reads a blob it uploaded, or one a live row it may read references; to anyone else the blob does
/// not exist (404). A caller uploads only when it may write a declared table with an attachment column (403
/// otherwise), and a row names only blobs its writer may read (422 otherwise).
struct BlobAccess: Sendable {
    let declarations: TableDeclarations
    let referencing: BlobReferencing
    let index: any BlobReferenceStorage
    let storage: any BlobStorage

    /// The rows of each table with attachment columns that `caller` may read; none without a verified subject.
    func readScopes(of caller: Caller) -> [BlobReadScope] {
        referencing.tables.keys.sorted().compactMap { table in
            guard let declaration = declarations.tables[table],
                let scope = try? RowScope(declaration.access, caller: caller, table: table)
            else { return nil }
            return BlobReadScope(table: table, scope: scope.stamp?.value)
        }
    }

    /// Whether `caller` may read `blob`: it uploaded it, or may read a live row that references it.
    func mayRead(_ blob: BlobHash, caller: Caller) async throws -> Bool {
        guard let subject = caller.subject else { return false }
        return try await index.mayRead(blob, uploader: subject, scopes: readScopes(of: caller))
    }

    /// Throws 403 unless `caller` may write a declared table that has an attachment column.
    func requireUploader(_ caller: Caller) throws(ServerError) {
        // Every declared table needs a verified caller (see `RowScope`).
        guard caller.subject != nil else { throw AuthenticationFailure.subject.error }
        let writable = referencing.tables.keys.contains { table in
            guard let declaration = declarations.tables[table],
                let scope = try? RowScope(declaration.access, caller: caller, table: table)
            else { return false }
            return scope.writable
        }
        guard writable else {
            throw ServerError(
                .forbidden,
                "Forbidden: blobs are uploaded for attachments of tables the caller may write; there is none.")
        }
    }

    /// Records that `caller` sent the bytes of `blob`.
    func recordUpload(of blob: BlobHash, by caller: Caller, at time: Date) async throws {
        guard let subject = caller.subject else { return }
        try await index.recordUpload(of: blob, by: subject, at: time)
    }

    /// Refuses with 422 a write of `table` whose attachment column names a blob that is not stored or that
    /// the caller neither uploaded nor may read through another row: so no client pulls a row whose file is
    /// missing, and a hash learned elsewhere never turns into read access. The two cases answer alike.
    func checkAttachments(of body: JSONObject, table: String, caller: Caller) async throws {
        guard let columns = referencing.tables[table]?.attachmentColumns else { return }
        for column in columns {
            guard let blob = BlobReferencing.blob(in: body[column]) else { continue }
            guard try await storage.size(of: blob) != nil, try await mayRead(blob, caller: caller) else {
                throw Self.unreadable(column: column, table: table, blob: blob)
            }
        }
    }

    /// The 422 of an attachment naming a blob the caller may not use.
    static func unreadable(column: String, table: String, blob: BlobHash) -> ServerError {
        ServerError(
            .unprocessableContent,
            "The property '\(column)' of table '\(table)' must name a blob the caller uploaded or may read; "
                + "\(blob) is not one (upload it first).")
    }
}
