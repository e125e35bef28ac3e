import Foundation
@_spi(SyncTablesTools) import SyncTables

/// Writes a command's result: one compact JSON object with `--json`, text otherwise, nothing with `--quiet`.
struct Output {
    let json: Bool
    let quiet: Bool

    init(_ options: StoreOptions) {
        self.json = options.json
        self.quiet = options.quiet
    }

    /// Writes the result in the chosen format; an empty text writes nothing (not an empty line).
    func emit(_ object: JSONObject, text: @autoclosure () -> String) {
        if json {
            Self.writeLine(object.jsonString, to: .standardOutput)
        } else if !quiet {
            let text = text()
            if !text.isEmpty { Self.writeLine(text, to: .standardOutput) }
        }
    }

    /// `true` when a progress line may be drawn: stderr is a terminal and neither `--json` nor `--quiet` is set.
    var showsProgress: Bool {
        !json && !quiet && isatty(STDERR_FILENO) == 1
    }

    static func writeLine(_ text: String, to handle: FileHandle) {
        handle.write(Data((text + "\n").utf8))
    }
}

/// Small helpers to build the JSON documents.
extension JSONValue {
    /// A string, or `null`.
    static func optional(_ text: String?) -> JSONValue {
        text.map { .string($0) } ?? .null
    }

    /// An integer, or `null`.
    static func optional(_ number: Int?) -> JSONValue {
        number.map { .integer(Int64($0)) } ?? .null
    }

    /// An integer.
    static func count(_ number: Int) -> JSONValue {
        .integer(Int64(number))
    }

    /// An ISO-8601 timestamp, or `null`.
    static func time(_ timestamp: Timestamp?) -> JSONValue {
        timestamp.map { .string($0.iso8601) } ?? .null
    }
}
