import Foundation
import SyncTables

/// The rules for item bodies and ids that clients send (PROTOCOL §1.4).
enum ItemBody {
    /// System properties a client may never write, compared case-insensitively.
    static let reservedProperties = ["createdAt", "updatedAt", "deleted"]

    /// Parses a request body that must be one JSON object.
    static func object(from bytes: [UInt8]) throws(ServerError) -> JSONObject {
        guard !bytes.isEmpty else {
            throw ServerError(.badRequest, "The request body must be a JSON object, but it is empty.")
        }
        guard case .object(let object) = try WireJSON.parse(bytes) else {
            throw ServerError(.badRequest, "The request body must be a JSON object.")
        }
        return object
    }

    /// Refuses bodies that try to set `createdAt`, `updatedAt` or `deleted` (any letter case).
    static func rejectReservedProperties(_ item: JSONObject) throws(ServerError) {
        let reserved = Set(reservedProperties.map { $0.lowercased() })
        if let name = item.keys.first(where: { reserved.contains($0.lowercased()) }) {
            throw ServerError(.badRequest, "Cannot update item with property '\(name)' as it is reserved")
        }
    }

    /// The id carried by a body: `nil` when absent, `null` or empty; a 400 when not a valid string id.
    static func bodyID(_ item: JSONObject) throws(ServerError) -> String? {
        switch item["id"] {
        case nil, .null?:
            return nil
        case .string(let id)?:
            if id.isEmpty { return nil }
            return try validatedID(id)
        case _?:
            throw ServerError(.badRequest, "The item id must be a string.")
        }
    }

    /// Checks an id against PROTOCOL §1.4: non-empty, not only whitespace, at most 255 characters, no control
    /// characters, none of `" + ? \ / \``, and not `.` or `..`.
    static func validatedID(_ id: String) throws(ServerError) -> String {
        let forbidden: Set<Character> = ["\"", "+", "?", "\\", "/", "`"]
        let isControl: (Unicode.Scalar) -> Bool = { $0.value <= 0x1F || (0x7F...0x9F).contains($0.value) }
        guard !id.trimmingCharacters(in: .whitespaces).isEmpty, id.count <= 255,
            !id.unicodeScalars.contains(where: isControl), !id.contains(where: forbidden.contains),
            id != ".", id != ".."
        else {
            throw ServerError(.badRequest, "The item id '\(id)' is not valid.")
        }
        return id
    }

    /// A new server-generated id: 32 lowercase hexadecimal digits.
    static func generatedID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
