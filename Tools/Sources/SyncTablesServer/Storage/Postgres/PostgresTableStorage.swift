import Foundation
import Logging
import PostgresNIO
import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// Tables in a PostgreSQL database that several server instances share.
///
/// Each table is one relation: `id` (the primary key, "C" collation), `body` (the row as the server returns
/// it: compact JSON with sorted keys), `keys` and `instants` (the projected values filters and orderings read,
/// see ``PostgresRowColumns``) and `position` (the commit-ordered change position). The relation
/// `__synctables_tables` holds one counter row per table; every write takes it, under its row lock, as the last
/// step before its commit, which orders writes (positions and `updatedAt` stamps) in commit order. See
/// <doc:ChangeOrder>.
///
/// With change feeds on, every write sends a notification on the schema's channel in its own transaction (see
/// ``PostgresChangeNotification``), and a ``PostgresChangeListener`` hands every instance's notifications to
/// this instance's hub.
final class PostgresTableStorage: TableStorage {
    let client: PostgresClient
    private let runner: Task<Void, Never>
    private let schema: String
    let statements: PostgresStatements
    let logger: Logger
    let announcer: ChangeAnnouncer
    /// Which rows reference blobs; each write keeps its row's references in its own transaction.
    let blobReferencing: BlobReferencing
    /// The channel writes notify on.
    let changeChannel: String
    private let listener: LockedState<PostgresChangeListener?>

    private init(
        client: PostgresClient, runner: Task<Void, Never>, schema: String, announcer: ChangeAnnouncer,
        blobReferencing: BlobReferencing, logger: Logger
    ) {
        self.client = client
        self.runner = runner
        self.schema = schema
        self.statements = PostgresStatements(schema: schema)
        self.announcer = announcer
        self.blobReferencing = blobReferencing
        self.changeChannel = PostgresChangeNotification.channel(schema: schema)
        self.listener = LockedState(nil)
        self.logger = logger
    }

    /// Connects, then creates the schema and the counter relation when absent (under an advisory lock, so
    /// instances starting together do not race), and listens for changes when `announcer` is active. Fails
    /// when the database cannot be reached.
    static func open(
        _ database: PostgresStorage, announcer: ChangeAnnouncer = .silent, blobReferencing: BlobReferencing = .none,
        logger: Logger
    ) async throws -> PostgresTableStorage {
        do {
            // One direct connection first: the pool would keep retrying an unreachable server instead of failing.
            let probe = try await PostgresConnection.connect(
                configuration: try database.connectionConfiguration(), id: 0, logger: logger)
            try await probe.close()
        } catch {
            throw PostgresStorageError.unreachable(database: database.redactedURL, underlying: Self.summary(error))
        }
        let client = PostgresClient(configuration: try database.clientConfiguration(), backgroundLogger: logger)
        let runner = Task { await client.run() }
        let storage = PostgresTableStorage(
            client: client, runner: runner, schema: database.schema, announcer: announcer,
            blobReferencing: blobReferencing, logger: logger)
        do {
            try await storage.createSchema()
            if let hub = announcer.hub {
                let listener = try await PostgresChangeListener.start(
                    database: database, channel: storage.changeChannel, hub: hub, logger: logger)
                storage.listener.withLock { $0 = listener }
            }
        } catch {
            runner.cancel()
            await runner.value
            throw PostgresStorageError.unreachable(database: database.redactedURL, underlying: Self.summary(error))
        }
        return storage
    }

    private var counters: String { statements.counters }

    private func relation(_ table: String) -> String {
        statements.relation(table)
    }

    private func createSchema() async throws {
        try await transaction { connection in
            try await Self.lockSchemaChanges(schema, connection, logger)
            try await connection.query(
                PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(PostgresSQL.identifier(schema))"),
                logger: logger)
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE TABLE IF NOT EXISTS \(counters) (
                            name text COLLATE "C" PRIMARY KEY,
                            last_position bigint NOT NULL DEFAULT 0,
                            last_updated_ms bigint NOT NULL DEFAULT 0,
                            properties text[])
                        """), logger: logger)
            // `properties` (every property name the table's rows have used; NULL: not recorded yet) came later.
            try await connection.query(
                PostgresQuery(unsafeSQL: "ALTER TABLE \(counters) ADD COLUMN IF NOT EXISTS properties text[]"),
                logger: logger)
            for statement in statements.createIdempotency { try await connection.query(statement, logger: logger) }
            for statement in statements.createBlobBookkeeping {
                try await connection.query(statement, logger: logger)
            }
        }
    }

    /// Serializes schema changes of all instances on this database schema for the transaction.
    static func lockSchemaChanges(_ schema: String, _ connection: PostgresConnection, _ logger: Logger)
        async throws
    {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\("synctables:" + schema)))", logger: logger)
    }

    // MARK: TableStorage

    /// Creates the table when absent. The property names come from its counter row, which every write that
    /// brings a new name extends, so a new instance does not read a large table to learn them.
    func prepareTable(_ table: String, scopeColumn: String?) async throws -> Set<String> {
        try await Self.describingErrors {
            let name = PostgresSQL.relation(table)
            let updatedAt = PostgresFilterCompiler.property("updatedAt")
            return try await transaction { connection in
                try await Self.lockSchemaChanges(schema, connection, logger)
                // Once it exists, leave it alone: even `CREATE INDEX IF NOT EXISTS` would lock out the writers.
                let existing = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT properties FROM \(counters) WHERE name = $1", binds: binds(name)),
                    logger: logger)
                var recorded: [String]??
                for try await row in existing { recorded = .some(try row.decode([String]?.self)) }
                switch recorded {
                case .some(.some(let properties)):
                    return Set(properties)
                case .some(.none):
                    return try await recordProperties(table, connection)
                case .none:
                    break
                }
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TABLE IF NOT EXISTS \(relation(table)) (
                                id text COLLATE "C" PRIMARY KEY,
                                body text NOT NULL,
                                keys jsonb NOT NULL,
                                instants jsonb NOT NULL,
                                position bigint NOT NULL)
                            """), logger: logger)
                // Incremental pulls order by updatedAt, then id: the index holds exactly those sort keys, and
                // `updatedAt` (an instant, see PostgresRowColumns) ranges start inside it.
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE INDEX IF NOT EXISTS \(PostgresSQL.identifier(name + "__updated")) ON \(relation(table))
                            (\(updatedAt.rank), \(updatedAt.number), \(updatedAt.text), id)
                            """), logger: logger)
                if let scopeColumn {
                    // One caller's pull: `scope = <value> AND updatedAt ≥ …`, ordered by updatedAt and id.
                    let scope = PostgresFilterCompiler.property(scopeColumn)
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                CREATE INDEX IF NOT EXISTS \(PostgresSQL.identifier(name + "__scope"))
                                ON \(relation(table)) (\(scope.rank), \(scope.text), \(updatedAt.rank),
                                \(updatedAt.number), \(updatedAt.text), id)
                                """), logger: logger)
                }
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE INDEX IF NOT EXISTS \(PostgresSQL.identifier(name + "__position"))
                            ON \(relation(table)) (position)
                            """), logger: logger)
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL:
                            "INSERT INTO \(counters) (name, properties) VALUES ($1, '{}') ON CONFLICT DO NOTHING",
                        binds: binds(name)),
                    logger: logger)
                return []
            }
        }
    }

    /// Reads the property names of a table whose counter row has none recorded (made by an older server) from
    /// its rows, once, with its writers held off by the counter row's lock, and records them.
    private func recordProperties(_ table: String, _ connection: PostgresConnection) async throws -> Set<String> {
        let name = PostgresSQL.relation(table)
        try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT 1 FROM \(counters) WHERE name = $1 FOR UPDATE", binds: binds(name)),
            logger: logger)
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT DISTINCT jsonb_object_keys(body::jsonb) FROM \(relation(table))"),
            logger: logger)
        var names: Set<String> = []
        for try await row in rows { names.insert(try row.decode(String.self)) }
        try await addProperties(names, table: table, connection)
        return names
    }

    /// Adds names to the table's recorded property names (the caller holds the counter row's lock or takes it).
    private func addProperties(_ names: Set<String>, table: String, _ connection: PostgresConnection) async throws {
        var bindings = PostgresBindings()
        bindings.append(PostgresSQL.relation(table))
        bindings.append(names.sorted())
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    UPDATE \(counters) SET properties = ARRAY(
                        SELECT DISTINCT unnest(coalesce(properties, '{}'::text[]) || $2::text[]) ORDER BY 1)
                    WHERE name = $1
                    """, binds: bindings), logger: logger)
    }

    func lookup(table: String, id: String) async throws -> JSONObject? {
        try await Self.describingErrors {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: "SELECT body FROM \(relation(table)) WHERE id = $1", binds: binds(id)),
                logger: logger)
            for try await row in rows { return try Self.object(try row.decode(String.self)) }
            return nil
        }
    }

    func change<Result: Sendable>(
        table: String,
        id: String,
        _ decide: @Sendable (JSONObject?, WriteStamp) throws -> (RowChange, Result)
    ) async throws -> Result {
        try await Self.describingErrors { try await changeRow(table: table, id: id, decide) }
    }

    /// One write's transaction; `claim` runs first in it and `complete` last, with the write's result (a keyed
    /// write records its answer there).
    func changeRow<Result: Sendable>(
        table: String,
        id: String,
        claim: ((PostgresConnection) async throws -> Void)? = nil,
        complete: ((Result, PostgresConnection) async throws -> Void)? = nil,
        _ decide: @Sendable (JSONObject?, WriteStamp) throws -> (RowChange, Result)
    ) async throws -> Result {
        while true {
            do {
                return try await transaction { connection in
                    try await claim?(connection)
                    let rows = try await connection.query(statements.lockRow(table: table, id: id), logger: logger)
                    var existing: JSONObject?
                    for try await row in rows { existing = try Self.object(try row.decode(String.self)) }
                    let taken = try await takePositions(table, count: 1, connection)
                    let (position, stamp) = (taken.stamps[0].position, taken.stamps[0].stamp)
                    let (change, result) = try decide(existing, stamp)
                    switch change {
                    case .upsert(let item):
                        try await recordNames(of: [item], recorded: taken.properties, table: table, connection)
                        try await write(
                            item, id: id, table: table, position: position, isNew: existing == nil,
                            notify: notification(table: table, row: item), connection)
                        try await replaceReferences(
                            table: table, id: id, existing: existing, written: item, connection)
                    case .delete:
                        let statement = statements.deleteRow(
                            table: table, id: id, notify: notification(table: table, row: existing))
                        for try await _ in try await connection.query(statement, logger: logger) {}
                        try await replaceReferences(
                            table: table, id: id, existing: existing, written: nil, connection)
                    }
                    try await complete?(result, connection)
                    return result
                }
            } catch is InsertRace {
                // Another instance inserted this id after our read; read again (it now exists).
                continue
            } catch let error as PSQLError where Self.isTransient(error) {
                continue
            }
        }
    }

    func readJSON(_ query: StoreQuery) async throws -> [[UInt8]] {
        try await Self.describingErrors { try await select(query).map { Array($0.body.utf8) } }
    }

    func read(_ query: StoreQuery) async throws -> [JSONObject] {
        try await Self.describingErrors { try await select(query).map(\.object) }
    }

    func readJSON(slices: [StoreQuery], limit: Int) async throws -> [[UInt8]] {
        try await Self.describingErrors {
            try await selectInOneSnapshot(slices, limit: limit, betweenSlices: nil).map { Array($0.body.utf8) }
        }
    }

    func read(slices: [StoreQuery], limit: Int) async throws -> [JSONObject] {
        try await Self.describingErrors {
            try await selectInOneSnapshot(slices, limit: limit, betweenSlices: nil).map(\.object)
        }
    }

    func count(_ query: StoreQuery) async throws -> Int {
        try await Self.describingErrors {
            let filter = try query.filter.map {
                try FilterPreparation.prepare($0, dateProperties: PostgresRowColumns.dateProperties)
            }
            var compiler = PostgresFilterCompiler()
            let condition = compiler.condition(filter)
            if condition.exact {
                let rows = try await client.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT count(*) FROM \(relation(query.table)) WHERE \(condition.sql)",
                        binds: compiler.binds), logger: logger)
                for try await row in rows { return Int(try row.decode(Int64.self)) }
                return 0
            }
            return try await select(StoreQuery(table: query.table, filter: query.filter)).count
        }
    }

    func seed(table: String, items: [JSONObject], stamp: @Sendable (inout JSONObject, WriteStamp) -> Void)
        async throws -> [JSONObject]
    {
        try await Self.describingErrors {
            try await seedRows(table: table, items: items, stamp: stamp)
        }
    }

    /// Seeds in one statement per call when the ids are distinct (a million rows for a benchmark take
    /// minutes row by row), else row by row so a later item replaces an earlier one with its id.
    private func seedRows(
        table: String, items: [JSONObject], stamp: @Sendable (inout JSONObject, WriteStamp) -> Void
    ) async throws -> [JSONObject] {
        let ids = try items.map { item in
            guard case .string(let id)? = item["id"] else { throw StoreError.missingID(table: table) }
            return id
        }
        return try await transaction { connection in
            guard Set(ids).count == ids.count else {
                var stored: [JSONObject] = []
                for (var item, id) in zip(items, ids) {
                    let taken = try await takePositions(table, count: 1, connection)
                    stamp(&item, taken.stamps[0].stamp)
                    try await recordNames(of: [item], recorded: taken.properties, table: table, connection)
                    let position = taken.stamps[0].position
                    try await write(item, id: id, table: table, position: position, isNew: false, connection)
                    stored.append(item)
                }
                try await notify(announcer.announcements(table: table, rows: stored).map { .change($0) }, connection)
                return stored
            }
            let taken = try await takePositions(table, count: items.count, connection)
            var rows: [(item: JSONObject, id: String, position: Int64)] = []
            for ((var item, id), next) in zip(zip(items, ids), taken.stamps) {
                stamp(&item, next.stamp)
                rows.append((item, id, next.position))
            }
            try await recordNames(of: rows.map(\.item), recorded: taken.properties, table: table, connection)
            if !rows.isEmpty { try await connection.query(statements.storeRows(rows, table: table), logger: logger) }
            try await notify(
                announcer.announcements(table: table, rows: rows.map(\.item)).map { .change($0) }, connection)
            return rows.map(\.item)
        }
    }

    /// Also forgets the recorded keyed writes, whose answers name the rows removed, and the rows' blob
    /// references, and resets every instance's change feeds.
    func removeAllRows() async throws {
        try await Self.describingErrors {
            let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT name FROM \(counters)"), logger: logger)
            var names: [String] = []
            for try await row in rows { names.append(try row.decode(String.self)) }
            try await transaction { connection in
                for name in names {
                    let table = "\(PostgresSQL.identifier(schema)).\(PostgresSQL.identifier(name))"
                    try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: logger)
                }
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(statements.idempotency)"), logger: logger)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(statements.blobReferences)"), logger: logger)
                try await notify([.reset("every row was removed")], connection)
            }
        }
    }

    func checkReady() async throws {
        do {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(counters)"), logger: logger)
            for try await _ in rows {}
        } catch let error as PSQLError where ["42P01", "3F000"].contains(error.serverInfo?[.sqlState] ?? "") {
            throw PostgresStorageError.schemaMissing(schema)
        } catch let error as PSQLError {
            throw PostgresStorageError.database(message: Self.summary(error), sqlState: error.serverInfo?[.sqlState])
        }
    }

    func close() async throws {
        let listener = self.listener.withLock { listener in
            defer { listener = nil }
            return listener
        }
        await listener?.stop()
        runner.cancel()
        await runner.value
    }

    // MARK: Writing

    /// Takes the table's next `count` positions and their `updatedAt` stamps, in order, under the counter
    /// row's lock, held to commit; also returns the table's recorded property names (`nil`: none recorded).
    ///
    /// The database clock gives the time (so instances with skewed clocks agree), bumped by a millisecond
    /// when it would not be later than the table's last stamp: stamps grow strictly in commit order.
    private func takePositions(_ table: String, count: Int, _ connection: PostgresConnection) async throws
        -> (stamps: [(position: Int64, stamp: WriteStamp)], properties: Set<String>?)
    {
        let rows = try await connection.query(statements.takePositions(table: table, count: count), logger: logger)
        for try await row in rows {
            let (lastPosition, lastMilliseconds, properties) = try row.decode((Int64, Int64, [String]?).self)
            let stamps = (0..<Int64(count)).map { index in
                let back = Int64(count) - 1 - index
                let position = lastPosition - back
                let version = String(UInt64(bitPattern: position), radix: 16)
                let timestamp = WriteStampIssuer.iso8601(milliseconds: lastMilliseconds - back)
                return (position, WriteStamp(version: version, timestamp: timestamp))
            }
            return (stamps, properties.map(Set.init))
        }
        throw PostgresStorageError.missingTable(table)
    }

    /// Adds the items' property names that the table's counter row does not list yet (its lock is held).
    private func recordNames(
        of items: [JSONObject], recorded: Set<String>?, table: String, _ connection: PostgresConnection
    ) async throws {
        var names: Set<String> = []
        for item in items { names.formUnion(item.properties.keys) }
        guard let recorded, names.isSubset(of: recorded) else {
            return try await addProperties(names, table: table, connection)
        }
    }

    private func write(
        _ item: JSONObject, id: String, table: String, position: Int64, isNew: Bool,
        notify: (channel: String, payload: String)? = nil, _ connection: PostgresConnection
    ) async throws {
        let statement = statements.storeRow(
            item, id: id, table: table, position: position, isNew: isNew, notify: notify)
        let rows = try await connection.query(statement, logger: logger)
        var inserted = false
        for try await _ in rows { inserted = true }
        if isNew, !inserted { throw InsertRace() }
    }

    /// The channel and payload announcing a write of `row` (the stored or the removed row), when feeds are on.
    private func notification(table: String, row: JSONObject?) -> (channel: String, payload: String)? {
        guard announcer.isActive else { return nil }
        return (
            changeChannel, PostgresChangeNotification.change(announcer.announcement(table: table, row: row)).payload
        )
    }

    /// Sends `notifications` in the caller's transaction (delivered when it commits), when feeds are on.
    private func notify(_ notifications: [PostgresChangeNotification], _ connection: PostgresConnection) async throws {
        guard announcer.isActive else { return }
        for notification in notifications {
            var binds = PostgresBindings()
            binds.append(changeChannel)
            binds.append(notification.payload)
            for try await _ in try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT 1 FROM pg_notify($1, $2)", binds: binds), logger: logger)
            {}
        }
    }

    // MARK: Reading

    struct Row {
        var body: String
        var object: JSONObject
    }

    /// The rows of `slices` in turn, at most `limit` in all, read in one REPEATABLE READ snapshot when there
    /// are several. `betweenSlices` runs between two slice reads (a test commits a write there).
    func selectInOneSnapshot(
        _ slices: [StoreQuery], limit: Int, betweenSlices: (@Sendable () async throws -> Void)?
    ) async throws -> [Row] {
        guard slices.count > 1 else {
            guard var only = slices.first else { return [] }
            only.limit = limit
            return try await select(only)
        }
        return try await client.withConnection { connection in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                var rows: [Row] = []
                for (index, var slice) in slices.enumerated() where rows.count < limit {
                    if index > 0 { try await betweenSlices?() }
                    slice.limit = limit - rows.count
                    rows += try await select(slice, on: connection)
                }
                try await connection.query("COMMIT", logger: logger)
                return rows
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// The rows of a query: in SQL entirely when the filter compiles exactly, else the candidates in order,
    /// filtered here with `FilterEvaluator` (the SQLite backend's reference semantics). On `connection` when
    /// given (inside its transaction), else on any pooled connection.
    private func select(_ query: StoreQuery, on connection: PostgresConnection? = nil) async throws -> [Row] {
        let (statement, exact, filter) = try statements.select(query)
        let rows =
            if let connection {
                try await connection.query(statement, logger: logger)
            } else {
                try await client.query(statement, logger: logger)
            }
        var selected: [Row] = []
        var skipped = 0
        let evaluator = FilterEvaluator(dateProperties: PostgresRowColumns.dateProperties)
        for try await row in rows {
            if let limit = query.limit, selected.count >= limit { break }
            let body = try row.decode(String.self)
            let object = try Self.object(body)
            if !exact {
                if let filter, !evaluator.matches(filter, item: object) { continue }
                if skipped < query.offset {
                    skipped += 1
                    continue
                }
            }
            selected.append(Row(body: body, object: object))
        }
        return selected
    }

    // MARK: Helpers

    /// Runs `body`, replacing PostgresNIO's errors (whose descriptions hide everything) with one that carries
    /// the server's message and SQLSTATE, for the log; bound values stay out of it.
    static func describingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError {
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            throw PostgresStorageError.database(message: message, sqlState: error.serverInfo?[.sqlState])
        }
    }

    private func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        try await client.transaction(logger: logger, body)
    }

    private func binds(_ values: String...) -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { bindings.append(value) }
        return bindings
    }

    static func object(_ body: String) throws -> JSONObject {
        guard case .object(let object) = try JSONValue(parsing: Array(body.utf8)) else {
            throw PostgresStorageError.invalidRow
        }
        return object
    }

    /// A deadlock or serialization failure: PostgreSQL rolled the transaction back, and running it again is safe.
    private static func isTransient(_ error: PSQLError) -> Bool {
        ["40P01", "40001"].contains(error.serverInfo?[.sqlState] ?? "")
    }

    /// What went wrong, from the server's message or the connection error.
    static func summary(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if error.code == .sslUnsupported {
            return "the server does not offer TLS, which sslmode=require needs (enable ssl on the server, or use "
                + "sslmode=prefer or disable)"
        }
        if let message = error.serverInfo?[.message] { return message }
        return error.underlying.map { "\($0)" } ?? "\(error.code)"
    }

    /// The insert lost the race for a new id to another writer.
    private struct InsertRace: Error {}
}

/// Why the PostgreSQL backend failed.
enum PostgresStorageError: Error, CustomStringConvertible {
    case unreachable(database: String, underlying: String)
    case missingTable(String)
    case invalidRow
    case missingBlobBytes(String)
    case schemaMissing(String)
    case database(message: String, sqlState: String?)

    var description: String {
        switch self {
        case .unreachable(let database, let underlying):
            "Cannot open the PostgreSQL database \(database): \(underlying)"
        case .missingTable(let table): "The table '\(table)' has no counter row."
        case .invalidRow: "A stored row is not a JSON object."
        case .missingBlobBytes(let blob): "The stored bytes of the blob \(blob) are incomplete."
        case .schemaMissing(let schema): "The schema '\(schema)' or the server's tables in it are missing."
        case .database(let message, let sqlState): "PostgreSQL: \(message) (SQLSTATE \(sqlState ?? "none"))"
        }
    }
}
