import Foundation

/// Durations as configuration files write them: `500ms`, `30s`, `5m`, `1h`, `1d`, or a number of seconds.
enum DurationText {
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400),
    ]

    static func parse(_ text: String) -> Duration? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text) { return seconds >= 0 && seconds.isFinite ? .seconds(seconds) : nil }
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let amount = Double(text.dropLast(unit.suffix.count)), amount >= 0, amount.isFinite else {
                continue
            }
            return .milliseconds(Int64((amount * unit.seconds * 1_000).rounded()))
        }
        return nil
    }
}
