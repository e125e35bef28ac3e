import Yams

/// What is wrong with a sync configuration file, and where: `sync.yml:7: definitions[0].interval: …`.
public struct SyncConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public let file: String
    /// The line (1-based), when known.
    public let line: Int?
    /// The key path, e.g. `definitions[0].interval`.
    public let key: String?
    /// What is wrong.
    public let message: String

    /// An error.
    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// A file that is not YAML (or JSON) at all: the parser's line and problem.
    init(file: String, syntaxError: any Error) {
        if let error = syntaxError as? YamlError, case .parser(_, let problem, let mark, _) = error {
            self.init(file: file, line: mark.line, key: nil, message: "not valid YAML or JSON: \(problem)")
        } else if let error = syntaxError as? YamlError, case .scanner(_, let problem, let mark, _) = error {
            self.init(file: file, line: mark.line, key: nil, message: "not valid YAML or JSON: \(problem)")
        } else if let error = syntaxError as? YamlError, case .duplicatedKeysInMapping(let keys, let context) = error {
            let names = Set(keys).sorted().map { "'\($0)'" }.joined(separator: ", ")
            self.init(
                file: file, line: context.mark.line, key: nil, message: "a key appears twice in one mapping: \(names)")
        } else {
            self.init(file: file, line: nil, key: nil, message: "not valid YAML or JSON: \(syntaxError)")
        }
    }

    /// `file:line: key: message`, leaving out what is not known.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return text + message
    }
}
