import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The event-stream parsing rules of the HTML standard, as ``ServerSentEventParser`` applies them.
@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    @Test func aBlankLineDispatchesTheEventWithItsTypeDataAndID() throws {
        let events = try Self.parse("event: change\nid: 7\ndata: {\"table\":\"todo\"}\n\n")

        #expect(events == [ServerSentEvent(type: "change", data: #"{"table":"todo"}"#, lastEventID: "7")])
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func everyLineEndingEndsALine(ending: String) throws {
        let text = ["event: a", "data: 1", "", "data: 2", "", ""].joined(separator: ending)

        let events = try Self.parse(text)

        #expect(events == [ServerSentEvent(type: "a", data: "1"), ServerSentEvent(data: "2")])
    }

    @Test func anEventSplitAcrossChunksAnywhereParsesTheSame() throws {
        let text = Array("event: change\r\nid: 3\r\ndata: é\r\n\r\n".utf8)
        for split in 1..<text.count {
            var parser = ServerSentEventParser()

            let events = try parser.consume(text[..<split]) + parser.consume(text[split...])

            #expect(events == [ServerSentEvent(type: "change", data: "é", lastEventID: "3")], "split at \(split)")
        }
    }

    @Test func dataLinesJoinWithLineFeedsAndOneLeadingSpaceIsDropped() throws {
        let events = try Self.parse("data:first\ndata:  second\ndata\n\n")

        #expect(events == [ServerSentEvent(data: "first\n second\n")])
    }

    @Test func commentsUnknownFieldsAndEventsWithoutDataAreNotDispatched() throws {
        let events = try Self.parse(": keep-alive\n\nevent: heartbeat\nid: 5\nretry: 100\nfoo: bar\n\ndata: x\n\n")

        // (The id of the event without data still counts: it is the stream's last event ID.)
        #expect(events == [ServerSentEvent(data: "x", lastEventID: "5")])
    }

    @Test func theLastEventIDCarriesOverUntilAnIDFieldChangesOrClearsIt() throws {
        let events = try Self.parse("id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 2\u{0}\ndata: d\n\n")

        #expect(events.map(\.lastEventID) == ["1", "1", "", ""])
    }

    @Test func aByteOrderMarkOpensTheStreamOnly() throws {
        let events = try Self.parse("\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n")

        // A second mark is part of a field name, which is then unknown.
        #expect(events == [ServerSentEvent(data: "a")])
    }

    @Test func anUnfinishedEventIsNotDispatched() throws {
        let events = try Self.parse("data: a\n\ndata: b\n")

        #expect(events == [ServerSentEvent(data: "a")])
    }

    @Test func aLineLongerThanTheBoundThrows() throws {
        var parser = ServerSentEventParser(maximumEventBytes: 16)

        #expect(throws: ServerSentEventParser.Overflow(limit: 16)) {
            _ = try parser.consume(Array("data: 0123456789abcdef\n\n".utf8))
        }
    }

    @Test func dataLongerThanTheBoundThrowsEvenInShortLines() throws {
        var parser = ServerSentEventParser(maximumEventBytes: 16)

        #expect(throws: ServerSentEventParser.Overflow(limit: 16)) {
            _ = try parser.consume(Array(String(repeating: "data: 0123\n", count: 5).utf8))
        }
    }

    private static func parse(_ text: String) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return try parser.consume(Array(text.utf8))
    }
}
