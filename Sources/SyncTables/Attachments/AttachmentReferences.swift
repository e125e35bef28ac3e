/// The attachments an item references through the properties its table's rules declare
/// (``SyncRules/attachments``): each such property holds an attachment, `null`, or an array of attachments.
enum AttachmentReferences {
    /// The attachments `item` holds in `properties`.
    ///
    /// - Throws: ``AttachmentError/notAnAttachment(table:property:)`` when one of them holds something else.
    static func attachments(in item: JSONObject, properties: [String], table: String) throws(AttachmentError)
        -> [FileAttachment]
    {
        var found: [FileAttachment] = []
        for property in properties {
            switch item[property] {
            case nil, .null?:
                continue
            case .array(let values)?:
                for value in values {
                    guard let attachment = FileAttachment(json: value) else {
                        throw .notAnAttachment(table: table, property: property)
                    }
                    found.append(attachment)
                }
            case let value?:
                guard let attachment = FileAttachment(json: value) else {
                    throw .notAnAttachment(table: table, property: property)
                }
                found.append(attachment)
            }
        }
        return found
    }

    /// The hashes `item` references in `properties`, skipping values that are not attachments (rows that came
    /// from elsewhere are read, not judged).
    static func hashes(in item: JSONObject, properties: [String]) -> [String] {
        readable(in: item, properties: properties).map(\.sha256)
    }

    /// The attachments `item` holds in `properties`, skipping values that are not attachments.
    static func readable(in item: JSONObject, properties: [String]) -> [FileAttachment] {
        properties.flatMap { property -> [FileAttachment] in
            switch item[property] {
            case .array(let values)?: return values.compactMap { FileAttachment(json: $0) }
            case let value?: return FileAttachment(json: value).map { [$0] } ?? []
            case nil: return []
            }
        }
    }
}

extension FileAttachment {
    /// The attachment a JSON value spells, `nil` when it spells none: an object with a `sha256` of 64 lowercase
    /// hexadecimal digits and a `size` of zero or more.
    init?(json: JSONValue) {
        guard case .object(let object) = json, case .string(let sha256)? = object["sha256"], Self.isHash(sha256),
            case .integer(let size)? = object["size"], size >= 0
        else { return nil }
        var contentType: String?
        if case .string(let text)? = object["contentType"] { contentType = text }
        var name: String?
        if case .string(let text)? = object["name"] { name = text }
        self.init(sha256: sha256, size: size, contentType: contentType, name: name)
    }
}
