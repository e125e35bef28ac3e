@_spi(SyncTablesTools) import SyncTablesCore

/// Checks a write body against its table's declaration before anything is stored: only declared properties,
/// values of the declared types, required properties present, and the stamped owner or claim column never set
/// by the client to anything but the caller's own value.
struct DeclaredWrite {
    let table: String
    let declaration: TableDeclaration
    let scope: RowScope

    /// Refuses the body with 400 and returns it with the stamped column set.
    ///
    /// `isInsert` also requires every required column.
    func admit(_ body: JSONObject, isInsert: Bool) throws(ServerError) -> JSONObject {
        let known = declaration.propertyNames
        let unknown = body.keys.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            let list = unknown.map { "'\($0)'" }.joined(separator: ", ")
            let declared = declaration.columns.keys.sorted().joined(separator: ", ")
            throw ServerError(
                .badRequest,
                "The table '\(table)' has no \(unknown.count == 1 ? "property" : "properties") \(list); "
                    + "its declared properties are: \(declared.isEmpty ? "none" : declared)."
            )
        }
        var admitted = body
        if let stamp = scope.stamp {
            if let sent = body[stamp.column], sent != .string(stamp.value) {
                throw ServerError(
                    .badRequest,
                    "The property '\(stamp.column)' is filled in by the server from the caller's token; leave it out."
                )
            }
            if isInsert { admitted[stamp.column] = .string(stamp.value) }
        }
        for (name, column) in declaration.columns.sorted(by: { $0.key < $1.key }) {
            guard let value = body[name] else {
                if isInsert && column.required {
                    throw ServerError(.badRequest, "The property '\(name)' of table '\(table)' is required.")
                }
                continue
            }
            try check(value, name: name, column: column)
        }
        return admitted
    }

    private func check(_ value: JSONValue, name: String, column: ColumnDeclaration) throws(ServerError) {
        if case .null = value {
            guard !column.required else {
                throw ServerError(
                    .badRequest, "The property '\(name)' of table '\(table)' is required; it cannot be null.")
            }
            return
        }
        guard Self.value(value, isA: column.type) else {
            throw ServerError(
                .badRequest,
                "The property '\(name)' of table '\(table)' must be \(Self.described(column.type)); got \(value.kindForMessages)."
            )
        }
    }

    private static func value(_ value: JSONValue, isA type: ColumnType) -> Bool {
        switch (type, value) {
        case (.json, _): true
        case (.string, .string), (.bool, .bool), (.object, .object), (.array, .array): true
        case (.number, .integer), (.number, .double), (.integer, .integer): true
        case (.integer, .double(let number)): number.rounded() == number && number.isFinite
        case (.date, .string(let text)): Projection.ticks(iso8601: text) != nil
        case (.attachment, .object(let object)): isAttachment(object)
        default: false
        }
    }

    private static func described(_ type: ColumnType) -> String {
        switch type {
        case .string: "a string"
        case .bool: "true or false"
        case .number: "a number"
        case .integer: "a whole number"
        case .date: "an ISO 8601 date-time string"
        case .object: "an object"
        case .array: "an array"
        case .json: "a JSON value"
        case .attachment:
            #"an attachment, {"sha256": "<64 lowercase hexadecimal digits>", "size": <bytes>, "contentType": "…", "name": "…"}"#
        }
    }

    /// Whether an object has an attachment's shape: a blob's hash and size, optionally a content type and a name,
    /// nothing else.
    private static func isAttachment(_ object: JSONObject) -> Bool {
        guard case .string(let hash)? = object["sha256"], BlobHash(hash) != nil,
            case .integer(let size)? = object["size"], size >= 0
        else { return false }
        for (key, value) in object.properties {
            switch (key, value) {
            case ("sha256", _), ("size", _), ("contentType", .string), ("contentType", .null), ("name", .string),
                ("name", .null):
                continue
            default: return false
            }
        }
        return true
    }
}
