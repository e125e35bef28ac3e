/// A coding key for arbitrary JSON property names.
struct JSONCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value; numbers decode as `.integer` when they fit in 64 bits, else `.double`.
    public init(from decoder: any Decoder) throws {
        if let direct = decoder as? ValueDecoder {
            self = direct.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode(JSONObject.self))
        }
    }

    /// Encodes the value with the encoder's native types.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            try object.encode(to: encoder)
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let bool): try container.encode(bool)
            case .integer(let integer): try container.encode(integer)
            case .double(let double): try container.encode(double)
            case .string(let string): try container.encode(string)
            case .array, .object: break
            }
        }
    }
}

extension JSONObject: Codable {
    /// Decodes a JSON object with any property names.
    public init(from decoder: any Decoder) throws {
        if let direct = decoder as? ValueDecoder {
            guard case .object(let object) = direct.value else {
                throw DecodingError.typeMismatch(
                    JSONObject.self,
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "Expected an object, found \(direct.value.kindName).")
                )
            }
            self = object
            return
        }
        let container = try decoder.container(keyedBy: JSONCodingKey.self)
        var properties: [String: JSONValue] = [:]
        properties.reserveCapacity(container.allKeys.count)
        for key in container.allKeys {
            properties[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        self.init(properties)
    }

    /// Encodes every property, in canonical key order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONCodingKey.self)
        for key in keys {
            if let value = properties[key] {
                try container.encode(value, forKey: JSONCodingKey(stringValue: key))
            }
        }
    }
}

extension JSONValue {
    /// A short name of the value's kind, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue {
    /// The value's kind for a message about a value of the wrong type: "a number" whether integral or not,
    /// as an app or a client thinks of it.
    @_spi(SyncTablesTools) public var kindForMessages: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
