import Foundation
import SyncTables

/// Converts between request/response bytes and the shared JSON value model.
///
/// The one place the server touches a JSON parser, so the wire format has a single owner.
enum WireJSON {
    /// Parses a complete JSON document.
    static func parse(_ bytes: [UInt8]) throws(ServerError) -> JSONValue {
        do {
            return try JSONDecoder().decode(DecodableJSON.self, from: Data(bytes)).value
        } catch {
            throw ServerError(.badRequest, "The request body is not valid JSON.")
        }
    }

    /// Serializes a value with sorted keys.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(EncodableJSON(value: value)))) ?? Array("null".utf8)
    }
}

private struct DecodableJSON: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(DecodableJSON.self).value) }
            value = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var properties: [String: JSONValue] = [:]
            for key in object.allKeys { properties[key.stringValue] = try object.decode(DecodableJSON.self, forKey: key).value }
            value = .object(JSONObject(properties))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let bool = try? single.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? single.decode(Int64.self) {
            value = .integer(integer)
        } else if let double = try? single.decode(Double.self) {
            value = .double(double)
        } else {
            value = .string(try single.decode(String.self))
        }
    }
}

private struct EncodableJSON: Encodable {
    let value: JSONValue

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .integer(let integer):
            var single = encoder.singleValueContainer()
            try single.encode(integer)
        case .double(let double):
            var single = encoder.singleValueContainer()
            try single.encode(double)
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(EncodableJSON(value: item)) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (name, item) in object.properties {
                try container.encode(EncodableJSON(value: item), forKey: AnyKey(stringValue: name))
            }
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
