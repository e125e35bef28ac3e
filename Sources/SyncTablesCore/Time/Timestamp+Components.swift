extension Timestamp {
    /// The UTC calendar fields of an instant, as the OData date functions (`year`, `hour`, …) read them.
    public struct Components: Sendable, Hashable {
        /// The year, 1–9999 for timestamps parsed from ISO-8601.
        public var year: Int
        /// The month, 1–12.
        public var month: Int
        /// The day of the month, 1–31.
        public var day: Int
        /// The hour, 0–23.
        public var hour: Int
        /// The minute, 0–59.
        public var minute: Int
        /// The second, 0–59.
        public var second: Int
    }

    /// The UTC calendar fields of this instant (proleptic Gregorian calendar).
    public var utcComponents: Components {
        let (days, ticksOfDay) = CivilCalendar.split(ticks: ticks)
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        let secondOfDay = Int(ticksOfDay / CivilCalendar.ticksPerSecond)
        return Components(
            year: Int(year), month: Int(month), day: Int(day),
            hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
    }
}
