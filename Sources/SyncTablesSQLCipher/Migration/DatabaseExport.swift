#if SQLCipher
    import CSQLCipher
    import Foundation
    @_spi(SyncTablesTools) import SyncTables
    @_spi(SyncTablesTools) import SyncTablesSQLite

    /// Copies a whole database into a new file with SQLCipher's `sqlcipher_export`, changing only its
    /// encryption, and proves the copy by reading it back.
    ///
    /// The copy is written next to the destination under a temporary name, checked (every table's row count,
    /// system tables included, read with the destination's key) and only then renamed into place, so a crash
    /// or a failed check never leaves a half-written file at `destination`. The source is only read.
    enum DatabaseExport {
        private static let attachedName = "synctables_export"

        /// Copies `source` (opened with `sourceKey`, nil for a plain file) to `destination` (encrypted with
        /// `destinationKey`, plain when nil). Returns every table's row count.
        static func copy(
            source: String, sourceKey: EncryptionKey?, destination: String, destinationKey: EncryptionKey?
        ) throws -> [String: Int] {
            for suffix in ["", "-wal", "-shm", "-journal"]
            where FileManager.default.fileExists(atPath: destination + suffix) {
                throw StoreError.cannotOpen(
                    path: destination, message: "a file already exists there; the copy never overwrites one")
            }
            guard FileManager.default.fileExists(atPath: source) else {
                throw StoreError.cannotOpen(path: source, message: "no database file there")
            }
            let partial = destination + ".partial-\(UUID().uuidString)"
            do {
                let counts = try export(
                    source: source, sourceKey: sourceKey, partial: partial, destinationKey: destinationKey)
                try verify(partial, key: destinationKey, expected: counts)
                try FileManager.default.moveItem(atPath: partial, toPath: destination)
                return counts
            } catch {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: partial + suffix)
                }
                throw error
            }
        }

        /// Exports `source` into a new file at `partial`; returns the source's row counts, read in the same
        /// transaction as the export so they describe exactly what was copied.
        private static func export(
            source: String, sourceKey: EncryptionKey?, partial: String, destinationKey: EncryptionKey?
        ) throws -> [String: Int] {
            // Read-write and create, because an attached file inherits the main connection's open flags;
            // the source's existence was checked, and nothing writes to it.
            let database = try open(source, key: sourceKey, create: true)
            defer { try? database.close() }
            return try mappingEngineErrors {
                try attach(partial, key: destinationKey, to: database)
                if destinationKey != nil {
                    try database.execute("PRAGMA \(attachedName).cipher_page_size = \(CipherSettings.pageSize)")
                }
                let counts = try database.transaction(.deferred) {
                    let counts = try rowCounts(database, schema: "main")
                    _ = try database.scalar("SELECT sqlcipher_export('\(attachedName)')")
                    // sqlcipher_export copies schema and rows, not the header's schema version stamp.
                    try database.execute("PRAGMA \(attachedName).user_version = \(try database.userVersion())")
                    return counts
                }
                try database.execute("DETACH DATABASE \(attachedName)")
                return counts
            }
        }

        /// Opens the finished copy with its key and compares every table's row count with the source's.
        private static func verify(_ path: String, key: EncryptionKey?, expected: [String: Int]) throws {
            let database = try open(path, key: key, create: false)
            defer { try? database.close() }
            let actual = try mappingEngineErrors { try rowCounts(database, schema: "main") }
            for (table, rows) in expected.sorted(by: { $0.key < $1.key }) where actual[table] != rows {
                throw StoreError.migrationVerificationFailed(
                    table: table, expectedRows: rows, actualRows: actual[table] ?? 0)
            }
            if let extra = actual.keys.sorted().first(where: { expected[$0] == nil }) {
                throw StoreError.migrationVerificationFailed(
                    table: extra, expectedRows: 0, actualRows: actual[extra] ?? 0)
            }
        }

        /// A connection proven readable: keyed and unlocked, or plain.
        private static func open(_ path: String, key: EncryptionKey?, create: Bool) throws -> Database {
            let database: Database
            do {
                database = try Database(path: path, flags: create ? .standard : [.readWrite, .noMutex])
            } catch {
                throw StoreError.cannotOpen(path: path, message: error.message)
            }
            try mappingEngineErrors {
                if let key {
                    try CipherSettings.unlock(database, key: key, path: path, cacheSize: false)
                } else {
                    try SQLiteStore.verifyReadable(database, path: path, keyed: false)
                }
            }
            return database
        }

        /// `ATTACH`es `path` with `key` (an empty key attaches a plain file). The key is bound from its own
        /// buffer, never formatted into SQL text.
        private static func attach(_ path: String, key: EncryptionKey?, to database: Database) throws {
            let connection = try database.connection()
            var statement: OpaquePointer?
            let sql = "ATTACH DATABASE ?1 AS \(attachedName) KEY ?2"
            var code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            if code == SQLITE_OK {
                code = sqlite3_bind_text(statement, 1, path, -1, transientDestructor)
            }
            if code == SQLITE_OK {
                if let key {
                    code = key.material.withBytes { bytes in
                        // Bound without a copy; the statement runs before the buffer can go away.
                        let bound = sqlite3_bind_blob(statement, 2, bytes.baseAddress, Int32(bytes.count), nil)
                        return bound == SQLITE_OK ? sqlite3_step(statement) : bound
                    }
                } else {
                    code = sqlite3_bind_text(statement, 2, "", 0, transientDestructor)
                    if code == SQLITE_OK { code = sqlite3_step(statement) }
                }
            }
            guard code == SQLITE_OK || code == SQLITE_DONE else {
                let message = sqlite3_errmsg(connection).map { String(cString: $0) } ?? "ATTACH failed"
                throw StoreError.cannotOpen(path: path, message: message)
            }
        }

        /// Every table's row count (SQLite's own `sqlite_*` tables excepted).
        private static func rowCounts(_ database: Database, schema: String) throws -> [String: Int] {
            let names = try database.prepare(
                "SELECT name FROM \(schema).sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            var tables: [String] = []
            while try names.step() { if let name = names.text(at: 0) { tables.append(name) } }
            var counts: [String: Int] = [:]
            for table in tables {
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                if case .integer(let count) = try database.scalar("SELECT count(*) FROM \(schema).\(quoted)") {
                    counts[table] = Int(count)
                }
            }
            return counts
        }

        /// SQLite's `SQLITE_TRANSIENT`: copy the bound value.
        private static let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        /// Runs `body`, turning engine errors into `StoreError`s.
        private static func mappingEngineErrors<Result>(_ body: () throws -> Result) throws -> Result {
            do {
                return try body()
            } catch let error as SQLiteError {
                throw StoreError(error)
            }
        }
    }
#endif
