/// Splits `$filter` / `$orderby` text into tokens, over UTF-8 bytes.
struct ODataTokenizer {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    /// Reads every token, ending with `.end`.
    mutating func tokenize() throws(ODataError) -> [ODataToken] {
        var tokens: [ODataToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(ODataError) -> ODataToken {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        let start = index
        guard index < bytes.count else { return ODataToken(kind: .end, position: start, endPosition: start) }
        let byte = bytes[index]
        let kind: ODataToken.Kind
        switch byte {
        case UInt8(ascii: "("):
            index += 1
            kind = .openParenthesis
        case UInt8(ascii: ")"):
            index += 1
            kind = .closeParenthesis
        case UInt8(ascii: ","):
            index += 1
            kind = .comma
        case UInt8(ascii: "-"):
            index += 1
            kind = .minus
        case UInt8(ascii: "'"):
            kind = .string(try readQuoted())
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            kind = .number(try readNumber())
        default:
            guard Self.isIdentifierStart(byte) else {
                throw .unexpectedCharacter(position: start, character: characterText(at: start))
            }
            while index < bytes.count, Self.isIdentifierContinuation(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[start..<index], as: UTF8.self)
            if index < bytes.count, bytes[index] == UInt8(ascii: "'") {
                kind = .typedLiteral(prefix: name, content: try readQuoted())
            } else {
                kind = .identifier(name)
            }
        }
        return ODataToken(kind: kind, position: start, endPosition: index)
    }

    /// Reads `'…'` starting at the opening quote; a doubled quote stands for one quote.
    private mutating func readQuoted() throws(ODataError) -> String {
        let quote = index
        index += 1
        var content: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "'") {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "'") else {
                    return String(decoding: content, as: UTF8.self)
                }
                index += 1
            }
            content.append(byte)
        }
        throw .unterminatedString(position: quote)
    }

    /// Reads `digits [. digits] [e [±] digits] [suffix]`; the parser gives it a type and a value.
    private mutating func readNumber() throws(ODataError) -> String {
        let start = index
        skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try requireDigits(numberStart: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try requireDigits(numberStart: start)
        }
        if index < bytes.count, Self.numberSuffixes.contains(bytes[index]) { index += 1 }
        // `12abc` is neither a number nor a name.
        if index < bytes.count, Self.isIdentifierContinuation(bytes[index]) {
            while index < bytes.count, Self.isIdentifierContinuation(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            throw .invalidLiteral(position: start, text: text, reason: "a number must not run into letters")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private mutating func requireDigits(numberStart: Int) throws(ODataError) {
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            let text = String(decoding: bytes[numberStart..<min(index, bytes.count)], as: UTF8.self)
            throw .invalidLiteral(position: numberStart, text: text, reason: "expected a digit")
        }
        skipDigits()
    }

    /// The whole character at a byte offset (which may be several bytes long), for error messages.
    private func characterText(at position: Int) -> String {
        var end = position + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }

    private static let numberSuffixes: Set<UInt8> = Set("LlMmFfDd".utf8)

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    static func isIdentifierContinuation(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }
}
