import Foundation

extension Timestamp {
    /// Ticks between 1970-01-01 and 2001-01-01, the reference date `Date` counts from.
    private static let referenceDateTicks: Int64 = 978_307_200 * CivilCalendar.ticksPerSecond

    /// Creates the timestamp nearest to a `Date` (to 100 ns).
    ///
    /// `Date` stores seconds as a `Double`, so instants far from 2001 are only as precise as that double.
    public init(date: Date) {
        let interval = date.timeIntervalSinceReferenceDate
        // ±900 billion seconds (about ±28,500 years) keeps every tick count inside Int64; NaN and
        // infinities, which no real instant has, land on the reference date or the bounds.
        let bound = 900_000_000_000.0
        guard interval.isFinite, interval.magnitude < bound else {
            let seconds: Int64 = interval.isNaN ? 0 : (interval < 0 ? -900_000_000_000 : 900_000_000_000)
            self.init(ticks: seconds * CivilCalendar.ticksPerSecond + Self.referenceDateTicks)
            return
        }
        // Split off whole seconds first so the fraction keeps every bit the double has.
        let wholeSeconds = interval.rounded(.down)
        let fraction = interval - wholeSeconds
        let ticks = Int64(wholeSeconds) * CivilCalendar.ticksPerSecond + Int64((fraction * 1e7).rounded())
        self.init(ticks: ticks + Self.referenceDateTicks)
    }

    /// The instant as a `Date` (rounded to what a `Double` can hold).
    public var date: Date {
        Date(timeIntervalSinceReferenceDate: Double(ticks - Self.referenceDateTicks) / 1e7)
    }
}
