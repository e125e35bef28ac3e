import NIOCore
import SyncTablesCore

/// One event of a change feed in the `text/event-stream` format: `event:`, `id:` (when it has one) and `data:`
/// lines, then a blank line. `data` is always one line of compact JSON.
struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: `ready`, `change`, `reset` or `heartbeat`.
    var name: String
    /// The position it stands at, if any.
    var id: ChangePosition?
    /// Its data.
    var data: JSONValue

    /// `event: ready`: the feed is open at `position`, with heartbeats every `heartbeat`.
    static func ready(at position: ChangePosition, heartbeat: Duration) -> ServerSentEvent {
        ServerSentEvent(
            name: "ready", id: position,
            data: .object(JSONObject(["heartbeatSeconds": ChangeFeedSettings.seconds(heartbeat)])))
    }

    /// `event: change`: a write to `record`'s table.
    static func change(_ record: ChangeRecord, epoch: String) -> ServerSentEvent {
        ServerSentEvent(
            name: "change", id: ChangePosition(epoch: epoch, sequence: record.sequence),
            data: .object(JSONObject(["table": .string(record.table)])))
    }

    /// `event: reset`: the server cannot say what changed; the client pulls everything.
    static func reset(at position: ChangePosition, reason: String) -> ServerSentEvent {
        ServerSentEvent(name: "reset", id: position, data: .object(JSONObject(["reason": .string(reason)])))
    }

    /// `event: heartbeat`: the feed is alive.
    static let heartbeat = ServerSentEvent(name: "heartbeat", id: nil, data: .object(JSONObject()))

    /// Appends the event's text to `buffer`.
    func write(to buffer: inout ByteBuffer) {
        buffer.writeString("event: \(name)\n")
        if let id { buffer.writeString("id: \(id)\n") }
        buffer.writeString("data: ")
        buffer.writeBytes(data.jsonBytes)
        buffer.writeString("\n\n")
    }
}
