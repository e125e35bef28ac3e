// TEMPORARY: stands in for the JSON parser/writer and ItemID that the `core` helper is landing in
// SyncTablesCore under these exact names. Delete this file when `main` has them.
import Foundation

package enum JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(offset: Int, reason: String)
    case notAnObject
    package var description: String { "JSONError" }
}

private struct ShimJSON: Decodable {
    let value: JSONValue
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            value = .integer(integer)
        } else if let double = try? container.decode(Double.self) {
            value = .double(double)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([ShimJSON].self) {
            value = .array(array.map(\.value))
        } else {
            let object = try container.decode([String: ShimJSON].self)
            value = .object(JSONObject(object.mapValues(\.value)))
        }
    }
}

extension JSONValue {
    package init(parsing bytes: some Collection<UInt8>) throws(JSONError) {
        do {
            self = try JSONDecoder().decode(ShimJSON.self, from: Data(bytes)).value
        } catch {
            throw .malformed(offset: 0, reason: "\(error)")
        }
    }

    var jsonBytes: [UInt8] {
        switch self {
        case .null: return Array("null".utf8)
        case .bool(let value): return Array((value ? "true" : "false").utf8)
        case .integer(let value): return Array(String(value).utf8)
        case .double(let value): return Array(String(value).utf8)
        case .string(let value): return Array(try! JSONEncoder().encode(value))
        case .array(let values):
            return Array("[".utf8) + values.map(\.jsonBytes).joined(separator: Array(",".utf8)) + Array("]".utf8)
        case .object(let object): return object.jsonBytes
        }
    }
}

extension JSONObject {
    package init(parsing bytes: some Collection<UInt8>) throws(JSONError) {
        guard case .object(let object) = try JSONValue(parsing: bytes) else { throw .notAnObject }
        self = object
    }

    var jsonBytes: [UInt8] {
        let members = properties.keys.sorted().map { key in
            JSONValue.string(key).jsonBytes + Array(":".utf8) + properties[key]!.jsonBytes
        }
        return Array("{".utf8) + members.joined(separator: Array(",".utf8)) + Array("}".utf8)
    }
}

enum ItemIDError: Error, Sendable, Hashable {
    case empty
    case forbiddenCharacter(Character)
}

enum ItemID {
    static func validate(_ id: String) throws(ItemIDError) {
        if id.isEmpty { throw .empty }
        if let bad = id.first(where: { "\"+?\\/`".contains($0) }) { throw .forbiddenCharacter(bad) }
    }
}
