import ArgumentParser
import Foundation

/// An age such as `30d`, `12h`, `90m`, `45s` or `2w`, as `--older-than` takes it.
struct AgeDuration: ExpressibleByArgument, Sendable, CustomStringConvertible {
    /// The age in seconds.
    let seconds: Int
    /// The text it was written as.
    let description: String

    private static let unitSeconds: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    init?(argument: String) {
        guard let unit = argument.last, let multiplier = Self.unitSeconds[unit],
            let amount = Int(argument.dropLast()), amount >= 0, amount <= Int(Int32.max)
        else { return nil }
        self.seconds = amount * multiplier
        self.description = argument
    }

    static var defaultValueDescription: String { "30d" }

    /// Parses `--older-than`, naming the accepted units when the text is not an age.
    static func parse(_ argument: String) throws -> AgeDuration {
        guard let age = AgeDuration(argument: argument) else {
            throw ValidationError(
                "write a number and a unit: s (seconds), m (minutes), h (hours), d (days) or w (weeks), e.g. 30d")
        }
        return age
    }

    /// The instant `self` before `now`.
    func before(_ now: Date) -> Date {
        now.addingTimeInterval(-TimeInterval(seconds))
    }
}
