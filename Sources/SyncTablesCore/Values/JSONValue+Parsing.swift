extension JSONValue {
    /// The deepest nesting of arrays and objects the parser accepts by default.
    public static let defaultMaximumDepth = 512

    /// Parses JSON text strictly (RFC 8259): numbers without fraction or exponent that fit in 64 bits
    /// become `.integer`, objects must not repeat a property name, and nesting is bounded.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: #"{"id":"a","priority":2}"#)
    /// ```
    ///
    /// - Throws: ``JSONError`` for text that is not valid JSON (with the byte offset where reading stopped) or nests
    ///   deeper than `maximumDepth`.
    public init(parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONError) -> JSONValue in
                var parser = JSONParser(bytes: bytes, maxDepth: maximumDepth)
                return try parser.parseDocument()
            }
        }
        self = try result.get()
    }

    /// Parses JSON from UTF-8 bytes (`[UInt8]`, `Data`, `ArraySlice<UInt8>`, `UnsafeRawBufferPointer`, …)
    /// with the same strict rules as parsing a `String`.
    ///
    /// - Throws: ``JSONError`` for text that is not valid JSON (with the byte offset where reading stopped) or nests
    ///   deeper than `maximumDepth`.
    public init(
        parsing bytes: some Collection<UInt8>,
        maximumDepth: Int = JSONValue.defaultMaximumDepth
    ) throws(JSONError) {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONError> in
            Result { () throws(JSONError) -> JSONValue in
                var parser = JSONParser(bytes: buffer, maxDepth: maximumDepth)
                return try parser.parseDocument()
            }
        }
        let result = bytes.withContiguousStorageIfAvailable(parse) ?? Array(bytes).withUnsafeBufferPointer(parse)
        self = try result.get()
    }
}

extension JSONObject {
    /// Parses JSON text that must hold an object.
    ///
    /// - Throws: ``JSONError`` for text that is not valid JSON (with the byte offset where reading stopped) or nests
    ///   deeper than `maximumDepth`, and ``JSONError/notAnObject`` for a value that is not an object.
    public init(parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONError) {
        guard case .object(let object) = try JSONValue(parsing: text, maximumDepth: maximumDepth) else {
            throw .notAnObject
        }
        self = object
    }

    /// Parses UTF-8 bytes that must hold a JSON object.
    ///
    /// - Throws: ``JSONError`` for text that is not valid JSON (with the byte offset where reading stopped) or nests
    ///   deeper than `maximumDepth`, and ``JSONError/notAnObject`` for a value that is not an object.
    public init(
        parsing bytes: some Collection<UInt8>,
        maximumDepth: Int = JSONValue.defaultMaximumDepth
    ) throws(JSONError) {
        guard case .object(let object) = try JSONValue(parsing: bytes, maximumDepth: maximumDepth) else {
            throw .notAnObject
        }
        self = object
    }
}
