import PostgresNIO

// The blob bookkeeping on PostgreSQL, shared by every instance on the schema:
//
// - `__blob_references`: one row per live row and blob it references, written in the row write's transaction;
// - `__blob_uploaders`: one row per blob and uploader;
// - `__blobs`: one row per blob, `kept_ms`: when it was last uploaded, newly referenced, or found referenced by
//   the sweeper. A write that newly references a blob updates this row, so it waits for (or is waited for by)
//   a sweeper step deciding about the same blob.

extension PostgresStatements {
    var blobReferences: String { "\(PostgresSQL.identifier(schema)).\"__blob_references\"" }
    var blobUploaders: String { "\(PostgresSQL.identifier(schema)).\"__blob_uploaders\"" }
    var blobs: String { "\(PostgresSQL.identifier(schema)).\"__blobs\"" }

    /// Creates the relations when absent.
    var createBlobBookkeeping: [PostgresQuery] {
        [
            PostgresQuery(
                unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(blobReferences) (
                        table_name text COLLATE "C" NOT NULL,
                        row_id text COLLATE "C" NOT NULL,
                        sha256 text COLLATE "C" NOT NULL,
                        scope text COLLATE "C",
                        PRIMARY KEY (table_name, row_id, sha256))
                    """),
            PostgresQuery(
                unsafeSQL: """
                    CREATE INDEX IF NOT EXISTS "__blob_references__sha256" ON \(blobReferences) (sha256, table_name, scope)
                    """),
            PostgresQuery(
                unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(blobUploaders) (
                        sha256 text COLLATE "C" NOT NULL,
                        uploader text COLLATE "C" NOT NULL,
                        uploaded_ms bigint NOT NULL,
                        PRIMARY KEY (sha256, uploader))
                    """),
            PostgresQuery(
                unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(blobs) (
                        sha256 text COLLATE "C" PRIMARY KEY,
                        kept_ms bigint NOT NULL)
                    """),
            PostgresQuery(unsafeSQL: #"CREATE INDEX IF NOT EXISTS "__blobs__kept" ON \#(blobs) (kept_ms)"#),
        ]
    }

    /// Keeps a blob a write newly references; returns a row when the blob is still known.
    func keepBlob(_ blob: BlobHash, at milliseconds: Int64) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(blob.hex)
        binds.append(milliseconds)
        return PostgresQuery(
            unsafeSQL: "UPDATE \(blobs) SET kept_ms = greatest(kept_ms, $2) WHERE sha256 = $1 RETURNING 1",
            binds: binds)
    }

    /// Removes the references of one row.
    func removeReferences(table: String, id: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(table)
        binds.append(id)
        return PostgresQuery(
            unsafeSQL: "DELETE FROM \(blobReferences) WHERE table_name = $1 AND row_id = $2", binds: binds)
    }

    /// Adds one reference of a row.
    func addReference(_ reference: BlobReference, table: String, id: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(table)
        binds.append(id)
        binds.append(reference.blob.hex)
        binds.append(reference.scope)
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(blobReferences) (table_name, row_id, sha256, scope) VALUES ($1, $2, $3, $4)
                ON CONFLICT DO NOTHING
                """, binds: binds)
    }

    /// Records an upload: the uploader's row and the blob's.
    func recordUpload(of blob: BlobHash, by uploader: String, at milliseconds: Int64) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(blob.hex)
        binds.append(uploader)
        binds.append(milliseconds)
        return PostgresQuery(
            unsafeSQL: """
                WITH uploader AS (
                    INSERT INTO \(blobUploaders) (sha256, uploader, uploaded_ms) VALUES ($1, $2, $3)
                    ON CONFLICT (sha256, uploader) DO UPDATE SET uploaded_ms = excluded.uploaded_ms)
                INSERT INTO \(blobs) (sha256, kept_ms) VALUES ($1, $3)
                ON CONFLICT (sha256) DO UPDATE SET kept_ms = greatest(\(blobs).kept_ms, excluded.kept_ms)
                """, binds: binds)
    }

    /// One row when the uploader uploaded the blob or a live row in one of `scopes` references it.
    func mayRead(_ blob: BlobHash, uploader: String, scopes: [BlobReadScope]) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(blob.hex)
        binds.append(uploader)
        var conditions: [String] = []
        for scope in scopes {
            binds.append(scope.table)
            var condition = "table_name = $\(binds.count)"
            if let value = scope.scope {
                binds.append(value)
                condition += " AND scope = $\(binds.count)"
            }
            conditions.append("(\(condition))")
        }
        let throughRows =
            conditions.isEmpty
            ? ""
            : """
             OR EXISTS (SELECT 1 FROM \(blobReferences) WHERE sha256 = $1 AND (\(conditions.joined(separator: " OR "))))
            """
        return PostgresQuery(
            unsafeSQL: """
                SELECT 1 WHERE EXISTS (SELECT 1 FROM \(blobUploaders) WHERE sha256 = $1 AND uploader = $2)\(throughRows)
                """, binds: binds)
    }

    /// One sweeper step: of up to `limit` blobs kept before `cutoff` (skipping those a write holds), forgets the
    /// unreferenced ones and returns their hashes, and keeps the referenced ones until `now`.
    func forgetUnreferencedBlobs(before cutoff: Int64, now: Int64, limit: Int) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(cutoff)
        binds.append(now)
        binds.append(Int64(limit))
        return PostgresQuery(
            unsafeSQL: """
                WITH candidates AS (
                    SELECT b.sha256, EXISTS (SELECT 1 FROM \(blobReferences) r WHERE r.sha256 = b.sha256) AS referenced
                    FROM \(blobs) b WHERE b.kept_ms < $1 ORDER BY b.kept_ms LIMIT $3 FOR UPDATE SKIP LOCKED),
                kept AS (
                    UPDATE \(blobs) SET kept_ms = $2
                    WHERE sha256 IN (SELECT sha256 FROM candidates WHERE referenced)),
                uploaders AS (
                    DELETE FROM \(blobUploaders) WHERE sha256 IN (SELECT sha256 FROM candidates WHERE NOT referenced))
                DELETE FROM \(blobs) WHERE sha256 IN (SELECT sha256 FROM candidates WHERE NOT referenced)
                RETURNING sha256
                """, binds: binds)
    }
}
