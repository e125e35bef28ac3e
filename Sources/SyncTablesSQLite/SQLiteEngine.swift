#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

/// Facts about the SQLite engine this build links: libsqlite3 by default, libsqlcipher with the
/// `SQLCipher` package trait.
public enum SQLiteEngine {
    /// The engine's SQLite version, for example `3.40.1` (libsqlite3) or `3.15.2` (SQLCipher 3.4.1).
    public static var version: String { String(cString: sqlite3_libversion()) }

    /// `true` when this build runs on libsqlcipher.
    public static var isSQLCipher: Bool {
        #if SQLCipher
            true
        #else
            false
        #endif
    }
}
