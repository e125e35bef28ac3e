import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

@Suite("Timestamp")
struct TimestampTests {
    @Test func epochIsZeroTicks() {
        #expect(Timestamp.epoch.ticks == 0)
        #expect(Timestamp(ticks: 1) > Timestamp.epoch)
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("1970-01-01T00:00:00.0000001Z", 1),
        ("1970-01-01T00:00:01.5Z", 15_000_000),
        ("1969-12-31T23:59:59.9999999Z", -1),
        ("2001-02-03T04:05:06.789Z", 9_811_731_067_890_000),
        ("2001-02-03T04:05:06.7890000+00:00", 9_811_731_067_890_000),
        ("2001-02-03T06:05:06.789+02:00", 9_811_731_067_890_000),
        ("2001-02-03T06:05:06.789+0200", 9_811_731_067_890_000),
        ("2001-02-03T01:35:06.789-0230", 9_811_731_067_890_000),
        ("2001-02-03t04:05:06.789z", 9_811_731_067_890_000),
        ("2001-02-03T04:05:06.78912345678Z", 9_811_731_067_891_234),
        ("0001-01-01T00:00:00Z", -621_355_968_000_000_000),
        ("9999-12-31T23:59:59.9999999Z", 2_534_023_007_999_999_999),
        ("2000-02-29T00:00:00Z", 9_517_824_000_000_000),
    ])
    func parsesISO8601(text: String, ticks: Int64) throws {
        #expect(try Timestamp(iso8601: text).ticks == ticks)
    }

    @Test func anInstantWithAnEasternOffsetIsEarlierThanTheSameWallClockInUTC() throws {
        let eastern = try Timestamp(iso8601: "2001-02-03T00:03:00+07:00")
        let utc = try Timestamp(iso8601: "2001-02-03T00:00:00Z")
        #expect(eastern < utc)
        #expect(eastern.iso8601 == "2001-02-02T17:03:00.000Z")
    }

    @Test(arguments: [
        "", "2001-02-03", "2001-02-03T04:05:06", "2001-02-03 04:05:06Z", "2001-2-03T04:05:06Z",
        "2001-02-03T04:05Z", "2001-02-03T04:05:06.Z", "2001-02-03T04:05:06+7:00", "2001-02-03T04:05:06+07",
        "2001-02-03T04:05:06+07:00:00", "2001-02-03T04:05:06ZZ", "2001-02-03T04:05:06Z ", " 2001-02-03T04:05:06Z",
        "2001/02/03T04:05:06Z", "+2001-02-03T04:05:06Z", "２００１-02-03T04:05:06Z", "2001-02-03T04:05:06.1a2Z",
    ])
    func rejectsMalformedText(text: String) {
        #expect {
            try Timestamp(iso8601: text)
        } throws: { error in
            guard case TimestampError.invalidFormat(let quoted, _) = error else { return false }
            return quoted == text
        }
        #expect(Timestamp(parsing: text) == nil)
    }

    @Test(arguments: [
        "0000-01-01T00:00:00Z", "2001-13-01T00:00:00Z", "2001-00-01T00:00:00Z", "2001-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z", "2001-04-31T00:00:00Z", "2001-01-00T00:00:00Z", "2001-01-01T24:00:00Z",
        "2001-01-01T00:60:00Z", "2001-01-01T00:00:60Z", "2001-01-01T00:00:00+24:00", "2001-01-01T00:00:00+00:60",
        "9999-12-31T23:59:59-00:01", "0001-01-01T00:00:00+00:01",
    ])
    func rejectsImpossibleDates(text: String) {
        #expect {
            try Timestamp(iso8601: text)
        } throws: { error in
            guard case TimestampError.invalidDate(let quoted, _) = error else { return false }
            return quoted == text
        }
    }

    @Test func canonicalTextUsesMillisecondsWhenTheyAreExact() {
        #expect(Timestamp(ticks: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(ticks: 1_230_000).iso8601 == "1970-01-01T00:00:00.123Z")
        #expect(Timestamp(ticks: 1_234_567).iso8601 == "1970-01-01T00:00:00.1234567Z")
        #expect(Timestamp(ticks: -1).iso8601 == "1969-12-31T23:59:59.9999999Z")
    }

    @Test func millisecondTextTruncates() {
        #expect(Timestamp(ticks: 1_239_999).iso8601Milliseconds == "1970-01-01T00:00:00.123Z")
        #expect(Timestamp(ticks: -1).iso8601Milliseconds == "1969-12-31T23:59:59.999Z")
    }

    @Test func odataLiteralWrapsTheCanonicalText() throws {
        let timestamp = try Timestamp(iso8601: "2000-01-01T00:00:00Z")
        #expect(timestamp.odataLiteral == "datetimeoffset'2000-01-01T00:00:00.000Z'")
    }

    @Test func canonicalTextRoundTripsForEveryDayOfSeveralCenturies() throws {
        var ticks: Int64 = -621_355_968_000_000_000 + 12_345_678
        while ticks < 2_534_023_007_999_999_999 {
            let timestamp = Timestamp(ticks: ticks)
            #expect(try Timestamp(iso8601: timestamp.iso8601) == timestamp)
            ticks += 86_400 * 10_000_000 * 97 + 1_234_567
        }
    }

    @Test func convertsToAndFromDateAtMillisecondPrecision() throws {
        let timestamp = try Timestamp(iso8601: "2024-05-01T10:00:00.123Z")
        #expect(abs(timestamp.date.timeIntervalSince1970 - 1_714_557_600.123) < 1e-6)
        #expect(abs(Timestamp(date: timestamp.date).ticks - timestamp.ticks) <= 1)
        #expect(Timestamp(date: Date(timeIntervalSince1970: 0)) == .epoch)
    }

    @Test func convertsExtremeAndInvalidDatesWithoutTrapping() {
        #expect(
            Timestamp(date: Date(timeIntervalSinceReferenceDate: .nan)).date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(Timestamp(date: Date(timeIntervalSinceReferenceDate: .infinity)) > Timestamp(date: .distantFuture))
        #expect(Timestamp(date: Date(timeIntervalSinceReferenceDate: -.infinity)) < Timestamp(date: .distantPast))
        #expect(Timestamp(date: .distantFuture).iso8601 == "4001-01-01T00:00:00.000Z")
    }

    @Test func formatsTicksFarOutsideTheCalendarRangeWithoutTrapping() {
        #expect(Timestamp(ticks: .max).iso8601.hasSuffix("Z"))
        #expect(Timestamp(ticks: .min).iso8601.hasPrefix("-"))
    }

    @Test func mutatedTextEitherParsesToARoundTrippingInstantOrThrows() throws {
        var random = SeededGenerator(seed: 11)
        let seeds = ["2001-02-03T04:05:06.789Z", "2001-02-03T04:05:06.1234567+07:00", "1999-12-31T23:59:59-0130"]
        let alphabet = Array("0123456789-:.+TZtz ".utf8)
        for _ in 0..<20_000 {
            var bytes = Array((seeds.randomElement(using: &random) ?? "").utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                let byte = alphabet.randomElement(using: &random) ?? 0
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(byte, at: position)
                default: bytes[position] = byte
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let timestamp = Timestamp(parsing: text) {
                #expect(try Timestamp(iso8601: timestamp.iso8601) == timestamp, "\(text)")
            }
        }
    }

    @Test func codesAsItsCanonicalString() throws {
        let timestamp = Timestamp(ticks: 1_234_567)
        let value = try JSONValueEncoder().encode(timestamp)
        #expect(value == "1970-01-01T00:00:00.1234567Z")
        #expect(try JSONValueDecoder().decode(Timestamp.self, from: value) == timestamp)
    }

    @Test func describesErrorsWithTheText() {
        let error = TimestampError.invalidDate(
            text: "2001-13-01T00:00:00Z", reason: "the month must be between 01 and 12")
        #expect(
            error.description
                == "\"2001-13-01T00:00:00Z\" is not a valid date-time: the month must be between 01 and 12.")
    }
}
