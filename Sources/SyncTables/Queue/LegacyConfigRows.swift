import Foundation

/// Layout 4's migration: the engine's cycle backoff (`"<failures>|<ISO time>"`) and the push lease
/// (`"<expiry ms> <owner>"`) were strings in `__config`'s `value`; they become typed rows. A value that does
/// not read is dropped: both only ever delay work, and both are written again when needed.
enum LegacyConfigRows {
    static func convert(in transaction: any StoreTransaction) throws {
        if let text = try legacyValue(EngineBackoff.id, in: transaction) {
            try transaction.delete(table: SystemTables.config, ids: [EngineBackoff.id])
            if let separator = text.firstIndex(of: "|"), let failures = Int(text[..<separator]),
                let until = try? Timestamp(iso8601: String(text[text.index(after: separator)...]))
            {
                try EngineBackoff(failures: failures, until: until.date).save(in: transaction)
            }
        }
        if let text = try legacyValue(PushLease.Holder.id, in: transaction) {
            try transaction.delete(table: SystemTables.config, ids: [PushLease.Holder.id])
            let parts = text.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let expires = Int64(parts[0]) {
                try PushLease.Holder(owner: String(parts[1]), expires: expires).save(in: transaction)
            }
        }
    }

    private static func legacyValue(_ id: String, in transaction: any StoreTransaction) throws -> String? {
        try transaction.lookup(table: SystemTables.config, id: id)?["value"]?.stringValue
    }
}
