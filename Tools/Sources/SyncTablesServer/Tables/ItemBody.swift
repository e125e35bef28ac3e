import SyncTablesCore

/// The rules for item bodies and ids that clients send.
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

    /// Refuses bodies with the character U+0000 (NUL) in a string or a property name, at any depth:
    /// PostgreSQL cannot store it, so both backends refuse it alike.
    static func rejectNUL(_ item: JSONObject) throws(ServerError) {
        guard let name = item.keys.first(where: { $0.contains("\u{0}") || containsNUL(item[$0] ?? .null) }) else {
            return
        }
        let shown = name.replacingOccurrences(of: "\u{0}", with: "\\u0000")
        throw ServerError(
            .badRequest, "The property '\(shown)' contains the character U+0000 (NUL), which the server does not store."
        )
    }

    private static func containsNUL(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.contains("\u{0}")
        case .array(let values): values.contains(where: containsNUL)
        case .object(let object): object.properties.contains { $0.key.contains("\u{0}") || containsNUL($0.value) }
        default: false
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

    /// Checks an id against the shared `ItemID` rules; a broken rule is a 400 naming it.
    static func validatedID(_ id: String) throws(ServerError) -> String {
        do {
            try ItemID.validate(id)
        } catch {
            throw ServerError(.badRequest, "The item id is not valid: \(error)")
        }
        return id
    }

    /// A new server-generated id (a lowercase UUID).
    static func generatedID() -> String {
        ItemID.generate()
    }
}
