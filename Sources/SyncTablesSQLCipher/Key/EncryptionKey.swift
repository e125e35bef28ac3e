#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) import SyncTables

    /// The secret that opens an ``EncryptedSQLiteStore``: a passphrase, or a raw 32-byte key.
    ///
    /// A passphrase goes through SQLCipher's key derivation (PBKDF2-HMAC-SHA1, 64,000 iterations: tens of
    /// milliseconds per open); a raw key is used as is (well under a millisecond), so prefer it when the key
    /// comes from a keychain or a key-management service.
    ///
    /// The bytes are copied into memory of the key's own, wiped when the last copy of the key is released.
    /// Memory the caller owns is not wiped: a Swift `String` cannot be wiped at all, and a `Data` or
    /// `[UInt8]` the caller passes stays the caller's to clear. The key never appears in `description`,
    /// `debugDescription`, `dump` or any error.
    ///
    /// ```swift
    /// let key = try EncryptionKey.raw(keyBytes)                 // 32 bytes, for example from the keychain
    /// let store = try EncryptedSQLiteStore(path: "todo.db", key: key)
    /// ```
    public struct EncryptionKey: Sendable {
        /// What kind of secret a key holds.
        public enum Kind: Sendable, Hashable {
            /// A passphrase, derived into the key with SQLCipher's PBKDF2.
            case passphrase
            /// A raw 256-bit key, used without derivation.
            case raw
        }

        /// The number of bytes a raw key has.
        public static let rawKeyByteCount = 32

        /// Whether this is a passphrase or a raw key.
        public let kind: Kind
        /// The bytes handed to `sqlite3_key`: the passphrase's bytes, or `x'<64 hex digits>'` for a raw key.
        let material: KeyBuffer

        /// A passphrase key from text (its UTF-8 bytes).
        ///
        /// Throws `StoreError.invalidKey(reason:)` for an empty passphrase (SQLCipher would silently
        /// leave the file unencrypted) and for one written like a raw-key literal `x'…'`.
        public static func passphrase(_ passphrase: String) throws(StoreError) -> EncryptionKey {
            let count = passphrase.utf8.count
            let material = KeyBuffer(count: count) { buffer in
                for (offset, byte) in passphrase.utf8.enumerated() { buffer[offset] = byte }
            }
            return try EncryptionKey(kind: .passphrase, checkedPassphrase: material)
        }

        /// A passphrase key from bytes (for example UTF-8 text that you wipe yourself afterwards).
        ///
        /// Throws `StoreError.invalidKey(reason:)` like the text variant.
        public static func passphrase(bytes: some ContiguousBytes) throws(StoreError) -> EncryptionKey {
            let material = bytes.withUnsafeBytes { source in
                KeyBuffer(count: source.count) { $0.copyMemory(from: source) }
            }
            return try EncryptionKey(kind: .passphrase, checkedPassphrase: material)
        }

        /// A raw 256-bit key: exactly ``rawKeyByteCount`` bytes, used without key derivation.
        ///
        /// Throws `StoreError.invalidKey(reason:)` when the key is not 32 bytes long.
        public static func raw(_ key: some ContiguousBytes) throws(StoreError) -> EncryptionKey {
            let material: KeyBuffer? = key.withUnsafeBytes { source in
                guard source.count == rawKeyByteCount else { return nil }
                // SQLCipher's raw-key form: the blob literal x'…' with 64 hex digits.
                return KeyBuffer(count: 3 + 2 * source.count) { buffer in
                    let digits = Array("0123456789ABCDEF".utf8)
                    buffer[0] = UInt8(ascii: "x")
                    buffer[1] = UInt8(ascii: "'")
                    for (offset, byte) in source.enumerated() {
                        buffer[2 + 2 * offset] = digits[Int(byte >> 4)]
                        buffer[3 + 2 * offset] = digits[Int(byte & 0x0F)]
                    }
                    buffer[buffer.count - 1] = UInt8(ascii: "'")
                }
            }
            guard let material else {
                let count = key.withUnsafeBytes { $0.count }
                throw .invalidKey(reason: "a raw key must be \(rawKeyByteCount) bytes long, not \(count)")
            }
            return EncryptionKey(kind: .raw, material: material)
        }

        private init(kind: Kind, material: KeyBuffer) {
            self.kind = kind
            self.material = material
        }

        private init(kind: Kind, checkedPassphrase material: KeyBuffer) throws(StoreError) {
            guard material.count > 0 else {
                throw .invalidKey(reason: "the passphrase is empty, which would leave the database unencrypted")
            }
            let looksRaw = material.withBytes { bytes in
                bytes.count >= 3 && bytes.first == UInt8(ascii: "x") && bytes[1] == UInt8(ascii: "'")
                    && bytes.last == UInt8(ascii: "'")
            }
            if looksRaw {
                throw .invalidKey(
                    reason: "a passphrase of the form x'…' would be read by SQLCipher as a raw key; "
                        + "use EncryptionKey.raw(_:) with the key's bytes instead")
            }
            self.init(kind: kind, material: material)
        }
    }

    extension EncryptionKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// Names the kind of key and nothing else.
        public var description: String {
            switch kind {
            case .passphrase: "EncryptionKey(passphrase, redacted)"
            case .raw: "EncryptionKey(raw 256-bit key, redacted)"
            }
        }

        /// The same as ``description``: the key is never shown.
        public var debugDescription: String { description }

        /// A mirror without children, so `dump` and debuggers show only ``description``.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }
#endif
