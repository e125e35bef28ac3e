/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01).
///
/// Written out (after Howard Hinnant's `days_from_civil`) instead of using `DateFormatter` or `Calendar`,
/// which are slow and depend on locale and time-zone settings.
enum CivilCalendar {
    static let ticksPerSecond: Int64 = 10_000_000
    static let ticksPerDay: Int64 = 86_400 * ticksPerSecond
    /// 0001-01-01T00:00:00Z through 9999-12-31T23:59:59.9999999Z.
    static let supportedTicks: ClosedRange<Int64> = -621_355_968_000_000_000...2_534_023_007_999_999_999

    /// The day number of a calendar date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day number.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Splits ticks into a day number and the ticks since that day's midnight (floor division).
    static func split(ticks: Int64) -> (days: Int64, ticksOfDay: Int64) {
        var days = ticks / ticksPerDay
        var remainder = ticks % ticksPerDay
        if remainder < 0 {
            days -= 1
            remainder += ticksPerDay
        }
        return (days, remainder)
    }
}
