import SyncTablesCore

/// What the PostgreSQL backend sends with `pg_notify` inside a write's transaction, so that every instance's
/// listener learns of the write when (and only when) it commits.
///
/// The channel is derived from the schema, so instances on other schemas of the same database hear nothing of
/// these writes. The payload is compact JSON, far below PostgreSQL's 8000-byte limit: `{"scope":…,"table":…}`
/// for a change (a table name of at most 128 characters, a scope value of at most
/// ``ChangeAnnouncement/maxScopeBytes`` or `null`), or `{"reset":"<reason>"}` when every row was removed.
enum PostgresChangeNotification: Sendable, Hashable {
    /// A committed write.
    case change(ChangeAnnouncement)
    /// The instances cannot say what changed.
    case reset(String)

    /// The channel of a schema: `synctables_changes_<schema>` when the schema is a plain lowercase name that
    /// fits PostgreSQL's 63-byte identifiers, else `synctables_changes_` and a hash of the schema.
    static func channel(schema: String) -> String {
        let prefix = "synctables_changes_"
        let plain = schema.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
        if plain, !schema.isEmpty, prefix.utf8.count + schema.utf8.count <= 63 { return prefix + schema }
        // FNV-1a: a channel name, not a secret; distinct schemas only need distinct channels.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in schema.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return prefix + "h" + String(hash, radix: 16)
    }

    /// The payload text.
    var payload: String {
        let value: JSONValue
        switch self {
        case .change(let announcement):
            value = .object(
                JSONObject([
                    "table": .string(announcement.table), "scope": announcement.scope.map(JSONValue.string) ?? .null,
                ]))
        case .reset(let reason):
            value = .object(JSONObject(["reset": .string(reason)]))
        }
        return String(decoding: value.jsonBytes, as: UTF8.self)
    }

    /// Reads a payload; `nil` when it is not one of ours.
    init?(payload: String) {
        guard case .object(let object)? = try? JSONValue(parsing: Array(payload.utf8)) else { return nil }
        if case .string(let reason)? = object["reset"] {
            self = .reset(reason)
            return
        }
        guard case .string(let table)? = object["table"] else { return nil }
        switch object["scope"] {
        case .string(let scope)?: self = .change(ChangeAnnouncement(table: table, scope: scope))
        case .null?, nil: self = .change(ChangeAnnouncement(table: table, scope: nil))
        case _?: return nil
        }
    }
}
