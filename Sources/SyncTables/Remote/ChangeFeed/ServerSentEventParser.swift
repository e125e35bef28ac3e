/// Turns the bytes of a `text/event-stream` body into events, chunk by chunk, following the "Parsing an event
/// stream" rules of the HTML standard (lines end in CRLF, LF or CR; `:` starts a comment; a blank line
/// dispatches; an event without data is not dispatched; an unfinished event at the end is dropped).
///
/// Why our own rather than a package: mattt/EventSource (the Swift package made for this) does not build on
/// Linux, where FoundationNetworking has no `URLSession.bytes(for:)`; its parser also takes an actor hop per
/// byte. The rules fit in this file. `retry` fields are ignored: the caller decides when to reconnect.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for event in try parser.consume(Array("event: change\nid: 7\ndata: {}\n\n".utf8)) {
///     print(event.type, event.lastEventID)  // change 7
/// }
/// ```
@_spi(SyncTablesTools) public struct ServerSentEventParser: Sendable {
    /// A line or an event's data grew past the parser's bound.
    @_spi(SyncTablesTools) public struct Overflow: Error, Sendable, Hashable {
        /// The bound, in bytes.
        @_spi(SyncTablesTools) public var limit: Int
    }

    /// The longest line and the most data one event may carry, in bytes: a stream that sends more is not
    /// one this parser will buffer.
    @_spi(SyncTablesTools) public let maximumEventBytes: Int

    private var line: [UInt8] = []
    /// A CR ended the last line: an LF right after it belongs to the same line ending.
    private var lineEndedWithCR = false
    private var isAtStreamStart = true
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var lastEventID = ""

    /// Creates a parser for one stream.
    @_spi(SyncTablesTools) public init(maximumEventBytes: Int = 1 << 20) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// Parses the next chunk of the stream and returns the events it completed, in order.
    ///
    /// - Throws: ``Overflow`` when a line or an event's data passes ``maximumEventBytes``.
    @_spi(SyncTablesTools) public mutating func consume(_ chunk: some Sequence<UInt8>) throws(Overflow)
        -> [ServerSentEvent]
    {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            switch byte {
            case UInt8(ascii: "\n") where lineEndedWithCR:
                lineEndedWithCR = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lineEndedWithCR = byte == UInt8(ascii: "\r")
                if let event = try endLine() { events.append(event) }
            default:
                lineEndedWithCR = false
                line.append(byte)
                guard line.count <= maximumEventBytes else { throw Overflow(limit: maximumEventBytes) }
            }
        }
        return events
    }

    private mutating func endLine() throws(Overflow) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if isAtStreamStart {
            isAtStreamStart = false
            // A byte order mark may open the stream, and only the stream.
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var valueStart = colon < line.endIndex ? colon + 1 : colon
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch field {
        case "event":
            eventType = value
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
            guard data.utf8.count <= maximumEventBytes else { throw Overflow(limit: maximumEventBytes) }
        case "id" where !value.utf8.contains(0):
            lastEventID = value
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID)
    }
}
