import PostgresNIO
import SyncTables
@_spi(SyncTablesTools) import SyncTablesCore

/// The statements the PostgreSQL backend sends for writes and queries, in one place: ``PostgresTableStorage``
/// runs them, and `sync-bench` runs the very same statements over plain PostgresNIO as its baseline.
package struct PostgresStatements: Sendable {
    /// The schema the tables live in.
    package let schema: String

    /// Statements for the tables of `schema`.
    package init(schema: String) {
        self.schema = schema
    }

    /// The relation of per-table counters: one row per table, `last_position` and `last_updated_ms`.
    var counters: String { "\(PostgresSQL.identifier(schema)).\"__synctables_tables\"" }

    /// The quoted, schema-qualified relation of a table's rows.
    func relation(_ table: String) -> String {
        "\(PostgresSQL.identifier(schema)).\(PostgresSQL.identifier(PostgresSQL.relation(table)))"
    }

    // MARK: Writes

    /// A write's first step: the row's body, locked until the transaction ends.
    package func lockRow(table: String, id: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(id)
        return PostgresQuery(unsafeSQL: "SELECT body FROM \(relation(table)) WHERE id = $1 FOR UPDATE", binds: binds)
    }

    /// A write's stamping step: the table's next `count` positions and `updatedAt` stamps in milliseconds
    /// (one each, strictly increasing), returning the last of both and the table's recorded property names
    /// (a write extends them when its item brings a new one). The time is the database clock's, bumped
    /// by a millisecond when that would not be later than the table's last stamp. The counter row stays locked
    /// to the commit (see <doc:ChangeOrder>).
    package func takePositions(table: String, count: Int = 1) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(PostgresSQL.relation(table))
        binds.append(Int64(count))
        return PostgresQuery(
            unsafeSQL: """
                UPDATE \(counters) SET last_position = last_position + $2,
                    last_updated_ms = greatest(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint,
                                               last_updated_ms + 1) + $2 - 1
                WHERE name = $1 RETURNING last_position, last_updated_ms, properties
                """, binds: binds)
    }

    /// A write's last step: the row stored at `position`. A new row (`isNew`) is inserted only when no other
    /// writer inserted its id first (then the statement returns no row); otherwise the row is replaced.
    ///
    /// With `notify`, the statement also sends that notification once the row is stored (delivered at commit),
    /// in the same round trip.
    package func storeRow(
        _ item: JSONObject, id: String, table: String, position: Int64, isNew: Bool,
        notify: (channel: String, payload: String)? = nil
    ) -> PostgresQuery {
        let columns = PostgresRowColumns.columns(of: item)
        var binds = PostgresBindings()
        binds.append(id)
        binds.append(String(decoding: item.jsonBytes, as: UTF8.self))
        binds.append(columns.keys)
        binds.append(columns.instants)
        binds.append(position)
        let insert = """
            INSERT INTO \(relation(table)) (id, body, keys, instants, position)
            VALUES ($1, $2, $3::jsonb, $4::jsonb, $5)
            """
        let conflict =
            isNew
            ? " ON CONFLICT (id) DO NOTHING RETURNING id"
            : """
             ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, keys = EXCLUDED.keys,
            instants = EXCLUDED.instants, position = EXCLUDED.position
            """
        guard let notify else { return PostgresQuery(unsafeSQL: insert + conflict, binds: binds) }
        binds.append(notify.channel)
        binds.append(notify.payload)
        let returning = isNew ? "" : " RETURNING id"
        return PostgresQuery(
            unsafeSQL:
                "WITH stored AS (\(insert + conflict + returning)) SELECT stored.id FROM stored, pg_notify($6, $7)",
            binds: binds)
    }

    /// A delete's last step; with `notify`, also sends that notification (delivered at commit).
    func deleteRow(table: String, id: String, notify: (channel: String, payload: String)?) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(id)
        let delete = "DELETE FROM \(relation(table)) WHERE id = $1"
        guard let notify else { return PostgresQuery(unsafeSQL: delete, binds: binds) }
        binds.append(notify.channel)
        binds.append(notify.payload)
        return PostgresQuery(
            unsafeSQL: "WITH gone AS (\(delete) RETURNING id) SELECT gone.id FROM gone, pg_notify($2, $3)", binds: binds
        )
    }

    /// Rows stored (inserted or replaced) in one statement, each at its position: seeding by the test controls.
    /// The ids must be distinct.
    func storeRows(_ rows: [(item: JSONObject, id: String, position: Int64)], table: String) -> PostgresQuery {
        var columns: (ids: [String], bodies: [String], keys: [String], instants: [String], positions: [Int64]) = (
            [], [], [], [], []
        )
        for row in rows {
            let projected = PostgresRowColumns.columns(of: row.item)
            columns.ids.append(row.id)
            columns.bodies.append(String(decoding: row.item.jsonBytes, as: UTF8.self))
            columns.keys.append(projected.keys)
            columns.instants.append(projected.instants)
            columns.positions.append(row.position)
        }
        var binds = PostgresBindings()
        binds.append(columns.ids)
        binds.append(columns.bodies)
        binds.append(columns.keys)
        binds.append(columns.instants)
        binds.append(columns.positions)
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(relation(table)) (id, body, keys, instants, position)
                SELECT id, body, keys::jsonb, instants::jsonb, position
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
                    AS row(id, body, keys, instants, position)
                ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, keys = EXCLUDED.keys,
                    instants = EXCLUDED.instants, position = EXCLUDED.position
                """, binds: binds)
    }

    // MARK: Queries

    /// The `SELECT body` of a query, whether its filter compiled exactly, and the prepared filter. When it did
    /// not compile exactly, the statement returns candidate rows in order without limit or offset, which the
    /// caller filters with `FilterEvaluator` (given the prepared filter) and then pages.
    package func select(_ query: StoreQuery) throws
        -> (statement: PostgresQuery, exact: Bool, filter: FilterExpression?)
    {
        let filter = try query.filter.map {
            try FilterPreparation.prepare($0, dateProperties: PostgresRowColumns.dateProperties)
        }
        var compiler = PostgresFilterCompiler()
        let condition = compiler.condition(filter)
        var sql = """
            SELECT body FROM \(relation(query.table)) WHERE \(condition.sql)
            ORDER BY \(PostgresFilterCompiler.orderBy(query.ordering))
            """
        if condition.exact {
            if let limit = query.limit { sql += " LIMIT \(limit)" }
            if query.offset > 0 { sql += " OFFSET \(query.offset)" }
        }
        return (PostgresQuery(unsafeSQL: sql, binds: compiler.binds), condition.exact, filter)
    }
}
