/// The rule for user table names, checked before any store sees them (the stores check again).
@_spi(SyncTablesTools) public enum SyncTableName {
    /// The longest accepted name.
    static let maximumLength = 128

    /// Checks a table name taken from an item type's name, whose error says to pass `named:` (a generic
    /// type's name, `Box<Int>`, is no identifier).
    static func validate(typeName name: String) throws(SyncError) {
        do {
            try validate(name)
        } catch {
            guard case .invalidTableName(_, let reason) = error else { throw error }
            throw .invalidTableName(
                name, reason: "\(reason); it is the name of the type \(name): pass `named:` to choose a table name")
        }
    }

    /// Throws ``SyncError/invalidTableName(_:reason:)`` unless `name` is a letter or `_`, then letters,
    /// digits or `_` (ASCII), at most 128 characters, not starting with the system prefix `__`.
    @_spi(SyncTablesTools) public static func validate(_ name: String) throws(SyncError) {
        guard !name.isEmpty else { throw .invalidTableName(name, reason: "the name is empty") }
        guard name.utf8.count <= maximumLength else {
            throw .invalidTableName(name, reason: "the name is longer than \(maximumLength) characters")
        }
        let bytes = Array(name.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        let underscore = UInt8(ascii: "_")
        guard isLetter(bytes[0]) || bytes[0] == underscore,
            bytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == underscore })
        else {
            throw .invalidTableName(
                name,
                reason: "use a letter or '_' followed by letters, digits or '_' (no spaces, quotes or punctuation)"
            )
        }
        guard !name.hasPrefix(SystemTables.reservedPrefix) else {
            throw .invalidTableName(name, reason: "names starting with '__' are reserved for system tables")
        }
    }
}
