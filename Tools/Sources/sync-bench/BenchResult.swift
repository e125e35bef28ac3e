import Foundation

/// One measured figure with its baseline, as printed in text and JSON.
struct BenchResult: Sendable {
    var suite: String
    var name: String
    var unit: String
    var value: Double
    var baseline: Double?
    var count: Int
    var seconds: Double
    var p50: Double?
    var p99: Double?
    var latencyUnit: String?
    var target: String?
    var note: String?

    /// The figure divided by its baseline, when there is one.
    var ratio: Double? {
        guard let baseline, baseline > 0 else { return nil }
        return value / baseline
    }

    func text() -> String {
        var line = "[\(suite)] \(name): \(Self.format(value)) \(unit)"
        if let baseline { line += "  baseline \(Self.format(baseline)) \(unit)" }
        if let ratio { line += "  ratio \(String(format: "%.2f", ratio))" }
        line += "  (\(count) in \(String(format: "%.3f", seconds)) s)"
        if let p50, let p99, let latencyUnit {
            line += "  p50 \(Self.format(p50)) \(latencyUnit)  p99 \(Self.format(p99)) \(latencyUnit)"
        }
        if let target { line += "  target \(target)" }
        if let note { line += "  — \(note)" }
        return line
    }

    func json() -> String {
        var fields: [(String, String)] = [
            ("suite", Self.quoted(suite)), ("name", Self.quoted(name)), ("unit", Self.quoted(unit)),
            ("value", Self.number(value)), ("baseline", baseline.map(Self.number) ?? "null"),
            ("ratio", ratio.map(Self.number) ?? "null"), ("count", String(count)), ("seconds", Self.number(seconds)),
        ]
        if let p50 { fields.append(("p50", Self.number(p50))) }
        if let p99 { fields.append(("p99", Self.number(p99))) }
        if let latencyUnit { fields.append(("latencyUnit", Self.quoted(latencyUnit))) }
        if let target { fields.append(("target", Self.quoted(target))) }
        if let note { fields.append(("note", Self.quoted(note))) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    }

    private static func number(_ value: Double) -> String {
        value.isFinite ? String(format: "%.4f", value) : "null"
    }

    private static func quoted(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default:
                if scalar.value < 0x20 {
                    escaped += String(format: "\\u%04x", scalar.value)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"" + escaped + "\""
    }
}

/// Where results and progress lines go.
struct Reporter: Sendable {
    var json: Bool

    func report(_ result: BenchResult) {
        print(json ? result.json() : result.text())
    }

    /// A human note; in JSON mode it goes to standard error so standard output stays one object per line.
    func note(_ message: String) {
        if json {
            FileHandle.standardError.write(Data(("# " + message + "\n").utf8))
        } else {
            print("# " + message)
        }
    }
}
