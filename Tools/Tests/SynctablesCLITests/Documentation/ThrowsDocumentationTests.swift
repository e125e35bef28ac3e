import Foundation
import Testing

/// The library's documentation says what its throwing calls throw: every public throwing function and
/// initializer of `SyncTables` and `SyncTablesCore` has a `- Throws:` callout, a typed `throws(E)` names `E`
/// there, and every error case a callout links exists (DocC reports a broken link only when the
/// documentation is built; this runs with the tests).
///
/// The sources are read as text, declaration by declaration: a declaration is public when it says `public`
/// or `open`, or is a requirement of a public protocol, and is not in an SPI (`@_spi`). `Codable`'s
/// `init(from:)` and `encode(to:)` keep the standard library's documentation.
@Suite("Documentation of thrown errors") struct ThrowsDocumentationTests {
    static let modules = ["Sources/SyncTables", "Sources/SyncTablesCore"]

    @Test func everyPublicThrowingDeclarationHasAThrowsCallout() throws {
        let declarations = try Self.publicThrowingDeclarations()
        #expect(declarations.count > 50, "the scanner found too few declarations: it no longer reads the sources")
        let undocumented = declarations.filter { $0.throwsText == nil }
        #expect(
            undocumented.isEmpty,
            "public throwing declarations without `- Throws:`:\n\(undocumented.map(\.location).joined(separator: "\n"))"
        )
    }

    @Test func aTypedThrowNamesItsErrorTypeInTheCallout() throws {
        let wrong = try Self.publicThrowingDeclarations().filter { declaration in
            guard let type = declaration.thrownType, let text = declaration.throwsText else { return false }
            return !text.contains("``\(type)``") && !text.contains("``\(type)/")
        }
        #expect(
            wrong.isEmpty,
            "typed throws whose `- Throws:` does not name the type:\n\(wrong.map(\.location).joined(separator: "\n"))")
    }

    @Test func everyErrorCaseACalloutLinksExists() throws {
        let cases = try Self.errorCases()
        #expect(cases["SyncError"]?.contains("queueFull(limit:)") == true, "the scanner no longer reads SyncError")
        var broken: [String] = []
        for declaration in try Self.publicThrowingDeclarations() {
            guard let text = declaration.throwsText else { continue }
            for link in Self.symbolLinks(in: text) {
                let parts = link.split(separator: "/", maxSplits: 1).map(String.init)
                guard parts.count == 2, let known = cases[parts[0]] else { continue }
                if !known.contains(parts[1]) { broken.append("\(declaration.location): ``\(link)``") }
            }
        }
        #expect(
            broken.isEmpty, "`- Throws:` links to error cases that do not exist:\n\(broken.joined(separator: "\n"))")
    }

    // MARK: Reading the sources

    struct Declaration {
        var location: String
        /// The text of the `- Throws:` callout, if the doc comment has one.
        var throwsText: String?
        /// `E` of a typed `throws(E)`.
        var thrownType: String?
    }

    /// Every Swift file of the modules checked, with its path from the repository root.
    static func sourceFiles() throws -> [(path: String, lines: [String])] {
        let root = RepositoryRoot.url
        var files: [(String, [String])] = []
        for module in modules {
            let folder = root.appendingPathComponent(module)
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                let path = String(url.path.dropFirst(root.path.count + 1))
                files.append((path, text.components(separatedBy: "\n")))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    static func publicThrowingDeclarations() throws -> [Declaration] {
        try sourceFiles().flatMap { declarations(in: $0.lines, path: $0.path) }
    }

    /// The public throwing functions, initializers and subscripts of one file.
    static func declarations(in lines: [String], path: String) -> [Declaration] {
        /// An open brace: whether what it opens is in an SPI, and whether it is a public protocol's body.
        struct Scope {
            var isSPI: Bool
            var isPublicProtocol: Bool
        }
        var scopes: [Scope] = []
        var found: [Declaration] = []
        var inMultilineString = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let code = codeOnly(line, inMultilineString: &inMultilineString)
            let attributes = attributesAbove(index, in: lines)
            let isSPI = (scopes.last?.isSPI ?? false) || attributes.contains("@_spi(") || code.contains("@_spi(")
            let head = code.trimmingCharacters(in: .whitespaces)
            if let keyword = declarationKeyword(head) {
                // The signature runs until its body opens, or until its parentheses close at the end of a line
                // that nothing continues (a protocol requirement).
                var signature = head
                var last = index
                while !signatureIsComplete(signature, next: last + 1 < lines.count ? lines[last + 1] : nil) {
                    last += 1
                    signature += " " + lines[last].trimmingCharacters(in: .whitespaces)
                }
                let effects = throwingEffects(of: signature)
                let inPublicProtocol = scopes.last?.isPublicProtocol ?? false
                let isPublic = modifiers(of: head).contains { $0 == "public" || $0 == "open" } || inPublicProtocol
                let isCodable =
                    keyword == "init" && signature.contains("init(from decoder:")
                    || signature.contains("func encode(to encoder:")
                if effects.throws, isPublic, !isSPI, !isCodable {
                    let documentation = docComment(above: index, in: lines)
                    found.append(
                        Declaration(
                            location: "\(path):\(index + 1): \(head.prefix(100))",
                            throwsText: throwsCallout(in: documentation), thrownType: effects.type))
                }
            }
            let opensPublicProtocol = head.range(of: #"^public\s+protocol\b"#, options: .regularExpression) != nil
            for character in code {
                if character == "{" {
                    scopes.append(Scope(isSPI: isSPI, isPublicProtocol: opensPublicProtocol))
                } else if character == "}", !scopes.isEmpty {
                    scopes.removeLast()
                }
            }
            index += 1
        }
        return found
    }

    /// `func`, `init` or `subscript` when `head` declares one.
    static func declarationKeyword(_ head: String) -> String? {
        guard !head.hasPrefix("//") else { return nil }
        var rest = Substring(head)
        // Attributes on the same line (`@discardableResult`, `@_spi(X)`, `@inlinable`).
        while rest.hasPrefix("@") {
            guard let space = rest.firstIndex(of: " ") else { return nil }
            rest = rest[space...].drop { $0 == " " }
        }
        for word in rest.split(separator: " ", omittingEmptySubsequences: true) {
            if word == "func" { return "func" }
            if word.hasPrefix("init(") || word.hasPrefix("init?(") || word.hasPrefix("init<") || word == "init" {
                return "init"
            }
            if word.hasPrefix("subscript") { return "subscript" }
            guard Self.declarationModifiers.contains(String(word)) else { return nil }
        }
        return nil
    }

    static let declarationModifiers: Set<String> = [
        "public", "open", "package", "internal", "fileprivate", "private", "static", "class", "final", "override",
        "mutating", "nonmutating", "nonisolated", "required", "convenience", "dynamic", "consuming", "borrowing",
    ]

    /// The modifiers before the declaration's keyword.
    static func modifiers(of head: String) -> [String] {
        head.split(separator: " ").map(String.init).prefix { declarationModifiers.contains($0) || $0.hasPrefix("@") }
    }

    /// Whether `signature` is whole: its body opened, or its parentheses closed and the next line does not go on
    /// with it.
    static func signatureIsComplete(_ signature: String, next: String?) -> Bool {
        if signature.contains("{") { return true }
        var depth = 0
        for character in signature {
            if character == "(" || character == "[" || character == "<" { depth += 1 }
            if character == ")" || character == "]" || character == ">" { depth -= 1 }
        }
        // `->` counts its `>`: one unmatched close per arrow.
        depth += signature.components(separatedBy: "->").count - 1
        if depth > 0 { return false }
        guard let next else { return true }
        let continued = next.trimmingCharacters(in: .whitespaces)
        return !["->", "async", "throws", "rethrows", "where", ")"].contains { continued.hasPrefix($0) }
    }

    /// Whether the declaration itself throws (not a closure among its parameters), and the type of a typed
    /// throw.
    static func throwingEffects(of signature: String) -> (throws: Bool, type: String?) {
        let declaration = signature.split(separator: "{", maxSplits: 1).first.map(String.init) ?? signature
        var depth = 0
        var outside = ""
        let characters = Array(declaration)
        var position = 0
        while position < characters.count {
            let character = characters[position]
            if depth == 0, String(characters[position...].prefix(7)) == "throws(" {
                let close = characters[position...].firstIndex(of: ")") ?? characters.count - 1
                let type = String(characters[(position + 7)..<close])
                return (true, type.trimmingCharacters(in: .whitespaces))
            }
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0 && character != ")" { outside.append(character) }
            position += 1
        }
        let words = outside.split { !$0.isLetter }
        return (words.contains("throws") || words.contains("rethrows"), nil)
    }

    /// The line without its comment and without the contents of its string literals.
    static func codeOnly(_ line: String, inMultilineString: inout Bool) -> String {
        if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
            inMultilineString.toggle()
            return ""
        }
        if inMultilineString { return "" }
        var code = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    code.append(character)
                }
            } else {
                if character == "/" && previous == "/" {
                    code.removeLast()
                    break
                }
                if character == "\"" { inString = true }
                code.append(character)
            }
            previous = character
        }
        return code
    }

    /// The attribute lines right above line `index`.
    static func attributesAbove(_ index: Int, in lines: [String]) -> String {
        var attributes = ""
        var line = index - 1
        while line >= 0, lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("@") {
            attributes += lines[line]
            line -= 1
        }
        return attributes
    }

    /// The `///` lines above line `index` (and above its attributes), without their slashes.
    static func docComment(above index: Int, in lines: [String]) -> [String] {
        var line = index - 1
        while line >= 0, lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("@") { line -= 1 }
        var documentation: [String] = []
        while line >= 0 {
            let text = lines[line].trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("///") else { break }
            documentation.insert(String(text.dropFirst(3)), at: 0)
            line -= 1
        }
        return documentation
    }

    /// The `- Throws:` callout: its line and the indented lines that go on with it.
    static func throwsCallout(in documentation: [String]) -> String? {
        guard
            let start = documentation.firstIndex(where: {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("- Throws:")
            })
        else { return nil }
        var text = documentation[start]
        for line in documentation[(start + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("- "), line.hasPrefix("   ") else { break }
            text += " " + trimmed
        }
        return text
    }

    /// The symbols ` ``linked`` ` in `text`.
    static func symbolLinks(in text: String) -> [String] {
        text.components(separatedBy: "``").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    /// The DocC link of every case of every public error enum (`SyncError` → `["cancelled",
    /// "queueFull(limit:)", …]`).
    static func errorCases() throws -> [String: Set<String>] {
        var cases: [String: Set<String>] = [:]
        for file in try sourceFiles() {
            var current: String?
            for line in file.lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let match = trimmed.firstMatch(of: #/^public enum (\w+): Error\b/#) {
                    current = String(match.1)
                    continue
                }
                guard let name = current else { continue }
                if line.hasPrefix("}") {
                    current = nil
                    continue
                }
                guard line.hasPrefix("    case "), let match = trimmed.firstMatch(of: #/^case (\w+)(\((.*)\))?/#)
                else { continue }
                var link = String(match.1)
                if let parameters = match.3 {
                    let labels = parameters.split(separator: ",").map { parameter in
                        let parts = parameter.split(separator: ":", maxSplits: 1)
                        return parts.count == 2 ? "\(parts[0].trimmingCharacters(in: .whitespaces)):" : "_:"
                    }
                    link += "(\(labels.joined()))"
                }
                cases[name, default: []].insert(link)
            }
        }
        return cases
    }
}
