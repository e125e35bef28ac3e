/// Creates and forward-migrates the system tables, stamping the layout version in `__config`.
///
/// Each ``Migration`` brings the layout from `version - 1` to `version`; opening runs the missing ones
/// in order, all in one transaction with the new stamp, so a crash never leaves a half-migrated store.
/// A store stamped with a newer version than this library knows is refused rather than guessed at.
enum SystemSchema {
    /// One step of the system-table layout.
    struct Migration: Sendable {
        /// The version this step produces.
        let version: Int
        /// The changes; tables may only be created or extended.
        let apply: @Sendable (any StoreTransaction) throws -> Void
    }

    /// Every step, in ascending version order. Append new steps; never edit shipped ones.
    static let migrations: [Migration] = [
        Migration(version: 1) { transaction in
            // Generic stores: the `__operations` JSON table; SQLiteStore: nothing, its catalog made its own.
            try transaction.prepareOperationQueue()
            try transaction.defineTable(SystemTables.errorsDefinition)
        },
        Migration(version: 2) { transaction in
            // The sync engine's retry schedule; operations may now also be in state `dead`.
            try transaction.defineTable(SystemTables.retriesDefinition)
        },
        Migration(version: 3) { transaction in
            // The operation history: what became of each operation, for an app's activity screen.
            try transaction.defineTable(OperationHistory.definition)
        },
        Migration(version: 4) { transaction in
            // The engine's backoff and the push lease become typed rows (they were `value` strings).
            try LegacyConfigRows.convert(in: transaction)
        },
        Migration(version: 5) { transaction in
            // Each table's declared rules (merge, conflicts, parents); queued updates and deletes keep their
            // ancestor (a field of the operation, which old operations lack).
            try transaction.defineTable(TableRulesRecord.definition)
        },
        Migration(version: 6) { transaction in
            // Attachments: what the store knows of each blob file, and its key in an encrypted store.
            try transaction.defineTable(BlobRecord.definition)
        },
    ]

    /// The layout version this library writes.
    static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the system tables to ``currentVersion``.
    static func open(_ store: any LocalStore) async throws(SyncError) {
        try await SyncError.mapping {
            try await store.write { transaction in
                // `__config` exists in every version, so the stamp can always be read.
                try transaction.defineTable(SystemTables.configDefinition)
                let stamped = try storedVersion(in: transaction)
                if stamped > currentVersion {
                    throw SyncError.unsupportedSchemaVersion(found: stamped, supported: currentVersion)
                }
                for migration in migrations where migration.version > stamped {
                    try migration.apply(transaction)
                }
                if stamped != currentVersion {
                    try SystemConfig.setValue(
                        String(currentVersion),
                        for: SystemConfig.schemaVersionKey,
                        in: transaction
                    )
                }
            }
        }
    }

    private static func storedVersion(in transaction: any StoreTransaction) throws -> Int {
        guard let text = try SystemConfig.value(for: SystemConfig.schemaVersionKey, in: transaction) else { return 0 }
        guard let version = Int(text), version >= 0 else {
            throw SyncError.corruptSystemTable(table: SystemTables.config, message: "schema version '\(text)'")
        }
        return version
    }
}
