import Hummingbird
import NIOCore
import SyncTables

/// Reads back a response the server built, to embed it in a batch result.
enum ResponseCollector {
    /// Headers every response carries; a batch result leaves them out.
    private static let generic: Set<String> = ["content-type", "content-length", "cache-control", "expires"]

    /// `{"status": n, "headers": {...}, "body": <JSON or null>}`.
    static func result(of response: Response) async throws -> JSONValue {
        let sink = BodySink()
        try await response.body.write(CollectingWriter(sink: sink))
        var headers = JSONObject()
        for field in response.headers where !generic.contains(field.name.canonicalName) {
            headers[field.name.rawName] = .string(field.value)
        }
        let body: JSONValue = sink.bytes.isEmpty ? .null : (try? JSONValue(parsing: sink.bytes)) ?? .null
        return .object(
            JSONObject([
                "status": .integer(Int64(response.status.code)), "headers": .object(headers), "body": body,
            ]))
    }

    private final class BodySink {
        var bytes: [UInt8] = []
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let sink: BodySink

        mutating func write(_ buffer: ByteBuffer) async throws {
            sink.bytes.append(contentsOf: buffer.readableBytesView)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
