import Foundation
import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// The table operations of the protocol on top of a ``TableStorage``: one atomic read-decide-write per
/// request, so concurrent clients (and several server instances on one database) lose nothing.
struct TableService: Sendable {
    let storage: any TableStorage
    let softDelete: SoftDeletePolicy
    let definedTables: DefinedTables
    /// The declared tables and their access rules; `nil`: development mode (every table, every row, every
    /// property).
    let declarations: TableDeclarations?
    /// The property names of each table, to cap how many a table may have.
    var properties = TableProperties(limit: SyncServerConfiguration().maxTableProperties)
    /// Which blobs a caller's rows may name; `nil` without declared tables or without blobs.
    var blobAccess: BlobAccess?

    init(
        storage: any TableStorage,
        softDelete: SoftDeletePolicy,
        definedTables: DefinedTables,
        declarations: TableDeclarations? = nil,
        properties: TableProperties = TableProperties(limit: SyncServerConfiguration().maxTableProperties)
    ) {
        self.storage = storage
        self.softDelete = softDelete
        self.definedTables = definedTables
        self.declarations = declarations
        self.properties = properties
    }

    /// Tables in a `SQLiteStore` the caller keeps open, stamped by `stamps`.
    init(
        store: SQLiteStore,
        softDelete: SoftDeletePolicy,
        stamps: WriteStampIssuer,
        definedTables: DefinedTables,
        properties: TableProperties = TableProperties(limit: SyncServerConfiguration().maxTableProperties)
    ) {
        self.init(
            storage: SQLiteTableStorage(store: store, ownsStore: false, stamps: stamps),
            softDelete: softDelete, definedTables: definedTables, properties: properties)
    }

    /// The table's declaration (`nil` in development mode) and the rows the caller may reach in it; 404 for a
    /// table the declarations do not name.
    func access(_ table: String, caller: Caller) throws(ServerError) -> (TableDeclaration?, RowScope) {
        guard let declarations else { return (nil, .everything) }
        guard let declaration = declarations.tables[table] else {
            throw ServerError(.notFound, "The table '\(table)' does not exist.")
        }
        return (declaration, try RowScope(declaration.access, caller: caller, table: table))
    }

    /// Creates the table on first use, with an index for incremental pulls.
    func ensureTable(_ table: String) async throws {
        guard await !definedTables.contains(table) else { return }
        let scopeColumn = declarations?.tables[table]?.access.stampedColumn
        let existing = try await storage.prepareTable(table, scopeColumn: scopeColumn)
        if await !properties.isKnown(table) {
            await properties.learn(table, names: existing)
        }
        await definedTables.insert(table)
    }

    /// `GET /tables/{table}/{id}`.
    func lookup(table: String, caller: Caller, id: String, includeDeleted: Bool) async throws -> JSONObject {
        let (_, scope) = try access(table, caller: caller)
        try await ensureTable(table)
        let hidesDeleted = softDelete.appliesTo(table) && !includeDeleted
        guard let item = try await storage.lookup(table: table, id: id), scope.contains(item),
            !(hidesDeleted && item.isTombstone)
        else {
            throw ServerError(.notFound, "The item does not exist")
        }
        return item
    }

    /// `POST /tables/{table}`: 201 with the stored item, or 409 with the current server item.
    ///
    /// Each write records its answer with `recording`, when given, in its own transaction.
    func insert(table: String, caller: Caller, item body: JSONObject, recording: IdempotentRecording? = nil)
        async throws -> JSONObject
    {
        let (declaration, scope) = try access(table, caller: caller)
        try scope.requireWritable(table)
        try ItemBody.rejectReservedProperties(body)
        try ItemBody.rejectNUL(body)
        let id = try ItemBody.bodyID(body) ?? ItemBody.generatedID()
        var submitted = body
        if let declaration {
            submitted = try DeclaredWrite(table: table, declaration: declaration, scope: scope)
                .admit(body, isInsert: true)
        }
        submitted["id"] = .string(id)
        // Clients never send a version on insert; a stale one must not leak into the stored row.
        submitted["version"] = nil
        try await ensureTable(table)
        try await properties.admit(submitted, into: table)
        if let declaration {
            try await checkReferences(of: submitted, table: table, declaration: declaration, caller: caller)
            try await blobAccess?.checkAttachments(of: submitted, table: table, caller: caller)
        }
        return try await change(table: table, id: id, recording: recording) { [submitted] existing, stamp in
            var item = submitted
            if let existing {
                guard scope.contains(existing) else {
                    // Another caller's row: the id is taken, and that is all the answer says.
                    throw ServerError(.conflict, "An item with this id already exists.")
                }
                throw ServerError(.conflict, "An item with id '\(id)' already exists.", serverItem: existing)
            }
            item["version"] = .string(stamp.version)
            item["createdAt"] = .string(stamp.timestamp)
            item["updatedAt"] = .string(stamp.timestamp)
            item["deleted"] = .bool(false)
            return (.upsert(item), item)
        }
    }

    /// `PATCH /tables/{table}/{id}`: merges the body into the stored item.
    func update(
        table: String,
        caller: Caller,
        id: String,
        patch body: JSONObject,
        precondition: ETag.Precondition?,
        recording: IdempotentRecording? = nil
    ) async throws -> JSONObject {
        let (declaration, scope) = try access(table, caller: caller)
        try scope.requireWritable(table)
        try ItemBody.rejectReservedProperties(body)
        try ItemBody.rejectNUL(body)
        if let bodyID = try ItemBody.bodyID(body), bodyID != id {
            throw ServerError(.badRequest, "The item ID and querystring ID did not match")
        }
        var changes = body
        changes["id"] = nil
        // A body `version` without If-Match is a concurrency check too, answered with 409 instead of 412.
        let bodyVersion = ItemVersion.version(of: changes)
        changes["version"] = nil
        if let declaration {
            changes = try DeclaredWrite(table: table, declaration: declaration, scope: scope)
                .admit(changes, isInsert: false)
        }
        try await ensureTable(table)
        try await properties.admit(changes, into: table)
        if let declaration {
            try await checkReferences(of: changes, table: table, declaration: declaration, caller: caller)
            try await blobAccess?.checkAttachments(of: changes, table: table, caller: caller)
        }
        return try await change(table: table, id: id, recording: recording) { [softDelete, changes] existing, stamp in
            guard var item = existing, scope.contains(item),
                !(softDelete.appliesTo(table) && item.isTombstone)
            else {
                throw ServerError(.notFound, "The item does not exist")
            }
            if let precondition {
                try Self.check(precondition, item: item)
            } else if let bodyVersion, ItemVersion.version(of: item) != bodyVersion {
                throw ServerError(.conflict, "The item has been changed on the server.", serverItem: item)
            }
            for (name, value) in changes.properties { item[name] = value }
            Self.stamp(&item, with: stamp)
            return (.upsert(item), item)
        }
    }

    /// `DELETE /tables/{table}/{id}`: marks the row deleted (soft delete) or removes it; returns the item.
    func delete(
        table: String, caller: Caller, id: String, precondition: ETag.Precondition?,
        recording: IdempotentRecording? = nil
    ) async throws -> JSONObject {
        let (_, scope) = try access(table, caller: caller)
        try scope.requireWritable(table)
        try await ensureTable(table)
        return try await change(table: table, id: id, recording: recording) { [softDelete] existing, stamp in
            let soft = softDelete.appliesTo(table)
            guard var item = existing, scope.contains(item), !(soft && item.isTombstone) else {
                throw ServerError(.notFound, "The item does not exist")
            }
            if let precondition { try Self.check(precondition, item: item) }
            guard soft else { return (.delete, item) }
            item["deleted"] = .bool(true)
            Self.stamp(&item, with: stamp)
            return (.upsert(item), item)
        }
    }

    /// `POST /tables/{table}/{id}`: restores a soft-deleted row.
    func undelete(
        table: String, caller: Caller, id: String, precondition: ETag.Precondition?,
        recording: IdempotentRecording? = nil
    ) async throws -> JSONObject {
        let (_, scope) = try access(table, caller: caller)
        guard softDelete.appliesTo(table) else {
            throw ServerError(.methodNotAllowed, "Undelete is only available on tables with soft delete enabled.")
        }
        try scope.requireWritable(table)
        try await ensureTable(table)
        return try await change(table: table, id: id, recording: recording) { existing, stamp in
            guard var item = existing, scope.contains(item) else {
                throw ServerError(.notFound, "The item does not exist")
            }
            if let precondition { try Self.check(precondition, item: item) }
            item["deleted"] = .bool(false)
            Self.stamp(&item, with: stamp)
            return (.upsert(item), item)
        }
    }

    /// `GET /tables/{table}`: one page of matching rows and, when asked, the total count.
    func query(table: String, caller: Caller, options: QueryOptions, pageSize: Int) async throws -> QueryPage {
        let (declaration, scope) = try access(table, caller: caller)
        if let declaration { try DeclaredQuery.check(options, table: table, declaration: declaration) }
        try await ensureTable(table)
        // The scope is a node of its own, ANDed to what the client asked: nothing in `$filter` reaches around it.
        var filter = scope.restricting(options.filter)
        if softDelete.appliesTo(table) && !options.includeDeleted {
            let notDeleted = FilterExpression.not(
                .comparison(.equal, .property("deleted"), .value(.bool(true)))
            )
            filter = filter.map { .and($0, notDeleted) } ?? notDeleted
        }
        let take = min(pageSize, options.top)
        // Without a page boundary (or with $skip after one): one query. After a boundary: its slices in turn.
        var slices: [FilterExpression?] = [filter]
        if let keyset = options.keyset {
            if options.skip > 0 {
                let after = keyset.rowsAfter(ordering: options.effectiveOrdering)
                slices = [filter.map { .and($0, after) } ?? after]
            } else {
                slices = keyset.slicesAfter(ordering: options.effectiveOrdering).map { slice in
                    filter.map { .and($0, slice) } ?? slice
                }
            }
        }
        let queries = slices.map { slice in
            StoreQuery(
                table: table, filter: slice, ordering: options.storeOrdering, limit: take, offset: options.skip)
        }
        let items: [[UInt8]]
        if let select = options.select {
            items = try await storage.read(slices: queries, limit: take).map {
                Self.project($0, onto: select).jsonBytes
            }
        } else {
            // Rows go out as the store holds them (compact JSON, sorted keys): no decoding and re-encoding.
            items = try await storage.readJSON(slices: queries, limit: take)
        }
        // The count is of every matching row, not of those after the page boundary, and only when asked for.
        let count = options.inlineCount ? try await storage.count(StoreQuery(table: table, filter: filter)) : nil
        return QueryPage(items: items, count: count, take: take)
    }

    /// Writes rows exactly as given (test controls): missing system properties are filled in, others kept.
    func seed(table: String, items: [JSONObject]) async throws -> [JSONObject] {
        for item in items {
            guard case .string(let id)? = item["id"] else {
                throw ServerError(.badRequest, "Every seeded item needs a string id.")
            }
            _ = try ItemBody.validatedID(id)
        }
        try await ensureTable(table)
        return try await storage.seed(table: table, items: items) { item, stamp in
            if item["version"] == nil { item["version"] = .string(stamp.version) }
            if item["createdAt"] == nil { item["createdAt"] = item["updatedAt"] ?? .string(stamp.timestamp) }
            if item["updatedAt"] == nil { item["updatedAt"] = .string(stamp.timestamp) }
            if item["deleted"] == nil { item["deleted"] = .bool(false) }
        }
    }

    /// Deletes every row of every user table (test controls).
    func removeAllRows() async throws {
        try await storage.removeAllRows()
    }

    // MARK: Helpers

    /// The storage's atomic write, keyed when `recording` is given.
    private func change(
        table: String,
        id: String,
        recording: IdempotentRecording?,
        _ decide: @Sendable (JSONObject?, WriteStamp) throws -> (RowChange, JSONObject)
    ) async throws -> JSONObject {
        guard let recording else { return try await storage.change(table: table, id: id, decide) }
        return try await storage.change(table: table, id: id, recording: recording, decide)
    }

    static func check(_ precondition: ETag.Precondition, item: JSONObject) throws(ServerError) {
        if case .version(let expected) = precondition, ItemVersion.version(of: item) != expected {
            throw ServerError(.preconditionFailed, "The item has been changed on the server.", serverItem: item)
        }
    }

    static func stamp(_ item: inout JSONObject, with stamp: WriteStamp) {
        item["version"] = .string(stamp.version)
        item["updatedAt"] = .string(stamp.timestamp)
    }

    static func project(_ item: JSONObject, onto properties: [String]) -> JSONObject {
        var projected = JSONObject()
        projected["id"] = item["id"]
        for name in properties { projected[name] = item[name] }
        return projected
    }
}

/// One page of a query response.
struct QueryPage: Sendable {
    /// The rows as JSON text, at most `take`.
    var items: [[UInt8]]
    /// The total number of matching rows, when `$inlinecount=allpages` asked for it.
    var count: Int?
    /// How many rows the page could hold: `min(pageSize, $top)`.
    var take: Int
}

/// The tables this server already defined in its store, so each is defined once.
actor DefinedTables {
    private var names: Set<String> = []

    func contains(_ name: String) -> Bool { names.contains(name) }
    func insert(_ name: String) { names.insert(name) }
    func removeAll() { names.removeAll() }
}
