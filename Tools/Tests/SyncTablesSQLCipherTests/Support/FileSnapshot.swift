#if SQLCipher
    import Foundation

    /// A database file's bytes and which of its side files (WAL, shared memory, journal) exist, to prove
    /// that a failed open wrote nothing.
    struct FileSnapshot: Equatable, CustomStringConvertible {
        let size: Int
        let digest: UInt64
        let sideFiles: [String]

        init(path: String) throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            size = bytes.count
            // FNV-1a over every byte: any changed byte changes the digest with overwhelming probability.
            digest = bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0100_0000_01b3 }
            sideFiles = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
        }

        var description: String {
            "\(size) bytes, FNV-1a \(String(digest, radix: 16)), side files \(sideFiles)"
        }
    }
#endif
