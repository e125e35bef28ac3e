import Foundation
@_spi(SyncTablesTools) import SyncTablesSQLite

#if SQLCipher
    import CSQLCipher
#else
    import CSQLite
#endif

/// Explains why a database file could not be read, from its first bytes and its size alone.
///
/// A wrong key, an encrypted file opened without a key and a file of random bytes all make the engine say
/// "file is encrypted or is not a database"; cryptographically they cannot be told apart. The documented
/// heuristic:
/// - a file that starts with the plain header `SQLite format 3\0` is a plain database: a key given for it is
///   ``StoreError/notEncrypted``; without a key it is ``StoreError/truncated(message:)`` when the header's
///   page count does not fit in the file, else ``StoreError/corrupt(message:)``;
/// - a file without that header whose size is a whole number of 1024-byte blocks (every SQLCipher page size
///   is a multiple of 1024) is taken for an encrypted database: ``StoreError/wrongKey`` with a key,
///   ``StoreError/keyRequired`` without one;
/// - with a key, `SQLITE_CORRUPT` (rather than `SQLITE_NOTADB`) means the first page decrypted but later
///   pages are missing: ``StoreError/truncated(message:)`` when the size is not a whole number of blocks;
/// - anything else is ``StoreError/corrupt(message:)`` (not a database).
package enum SQLiteFileProbe {
    /// The 16 bytes every plain SQLite database file starts with.
    package static let plainHeader = Array("SQLite format 3\0".utf8)
    /// Page sizes of encrypted files are multiples of this.
    package static let pageGranularity: Int64 = 1024

    /// The store error for a failed first read of the file at `path`; `keyed` tells whether a key was given.
    package static func openFailure(_ error: SQLiteError, path: String, keyed: Bool) -> StoreError {
        guard error.code == SQLITE_NOTADB || error.code == SQLITE_CORRUPT, let facts = FileFacts(path: path) else {
            return StoreError(error)
        }
        if facts.hasPlainHeader {
            // A plain file shorter than its header says was already reported by `plainTruncation(path:)`,
            // which runs before the first read.
            return keyed && error.code == SQLITE_NOTADB ? .notEncrypted : .corrupt(message: error.message)
        }
        let wholePages = facts.size > 0 && facts.size % pageGranularity == 0
        if error.code == SQLITE_NOTADB && wholePages { return keyed ? .wrongKey : .keyRequired }
        if keyed && error.code == SQLITE_CORRUPT && !wholePages {
            return .truncated(
                message: "the encrypted file's first page opens with this key, but the file ends mid-page "
                    + "(\(facts.size) bytes)")
        }
        return .corrupt(
            message: "\(error.message) (no SQLite header, and \(facts.size) bytes is not a whole number of pages)")
    }

    /// ``StoreError/truncated(message:)`` for a plain database file shorter than its header says, before
    /// SQLite reads it: older engines (SQLite 3.15 under SQLCipher) only notice when they reach the missing
    /// pages. Skipped while a write-ahead log exists, when the header may be ahead of the file.
    package static func plainTruncation(path: String) -> StoreError? {
        guard !FileManager.default.fileExists(atPath: path + "-wal"), let facts = FileFacts(path: path),
            facts.hasPlainHeader, let expected = facts.plainHeaderByteCount, expected > facts.size
        else { return nil }
        return .truncated(message: "\(facts.size) bytes, the header says \(expected)")
    }

    /// The first bytes and the size of a file.
    private struct FileFacts {
        let size: Int64
        let header: [UInt8]

        init?(path: String) {
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            guard let end = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil else { return nil }
            size = Int64(end)
            header = (try? handle.read(upToCount: 100)).map { Array($0) } ?? []
        }

        var hasPlainHeader: Bool { header.starts(with: SQLiteFileProbe.plainHeader) }

        /// The size the plain header claims (page size × page count), when the header is complete.
        var plainHeaderByteCount: Int64? {
            guard header.count >= 32 else { return nil }
            let rawPageSize = Int64(header[16]) << 8 | Int64(header[17])
            let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
            let pageCount = header[28..<32].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            return pageSize * pageCount
        }
    }
}
