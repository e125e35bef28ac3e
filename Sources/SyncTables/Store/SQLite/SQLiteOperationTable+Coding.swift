@_spi(SyncTablesTools) import SyncTablesCore
@_spi(SyncTablesTools) import SyncTablesSQLite

/// How catalog layout 5 keeps a queued operation's words small: the kind and the state as numbers, and an
/// operation id that is a lowercase UUID (every id the context makes) as its 16 bytes. A queued insert's row
/// went from 107 to about 75 bytes. Rows of layout 4 and before spelled all three as text; the decoder still
/// reads that form, which the step to layout 5 relies on.
extension SQLiteOperationTable {
    /// The stored number of each kind; `insert` and `update`, the usual ones, take no bytes (SQLite keeps 0
    /// and 1 in the record header).
    static func code(of kind: OperationKind) -> Int64 {
        switch kind {
        case .insert: 0
        case .update: 1
        case .delete: 2
        }
    }

    static func code(of state: OperationState) -> Int64 {
        switch state {
        case .pending: 0
        case .attempted: 1
        case .failed: 2
        case .dead: 3
        }
    }

    static func kind(from value: SQLiteValue) -> OperationKind? {
        switch value {
        case .integer(let code): OperationKind.allCases.first { self.code(of: $0) == code }
        case .text(let name): OperationKind(rawValue: name)
        default: nil
        }
    }

    static func state(from value: SQLiteValue) -> OperationState? {
        switch value {
        case .integer(let code): OperationState.allCases.first { self.code(of: $0) == code }
        case .text(let name): OperationState(rawValue: name)
        default: nil
        }
    }

    /// The stored form of an operation id: its 16 bytes when it is a lowercase UUID in its usual spelling,
    /// otherwise its text, so any id comes back exactly as it was given.
    static func storedID(_ id: String) -> SQLiteValue {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var pending: UInt8?
        for (offset, character) in id.utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard character == UInt8(ascii: "-") else { return .text(id) }
                continue
            }
            guard let nibble = lowercaseHexValue(character), offset < 36 else { return .text(id) }
            if let high = pending {
                bytes.append(high << 4 | nibble)
                pending = nil
            } else {
                pending = nibble
            }
        }
        return bytes.count == 16 ? .blob(bytes) : .text(id)
    }

    /// The id a stored value spells: the UUID text of 16 bytes, or the text itself.
    static func operationID(from value: SQLiteValue) -> String? {
        switch value {
        case .text(let text): return text
        case .blob(let bytes) where bytes.count == 16:
            let half = { (range: Range<Int>) in bytes[range].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            return ItemID.uuidString((half(0..<8), half(8..<16)))
        default: return nil
        }
    }

    private static func lowercaseHexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
