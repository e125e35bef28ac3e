import Hummingbird
import NIOCore
import SyncTablesCore

/// Reads back a response the server built, to embed it in a batch result or to compress it.
enum ResponseCollector {
    /// Headers every response carries; a batch result leaves them out.
    private static let generic: Set<String> = ["content-type", "content-length", "cache-control", "expires"]

    /// `{"status": n, "headers": {...}, "body": <JSON or null>}`.
    static func result(of response: Response) async throws -> JSONValue {
        let body = try await self.body(of: response)
        var headers = JSONObject()
        for field in response.headers where !generic.contains(field.name.canonicalName) {
            headers[field.name.rawName] = .string(field.value)
        }
        let json: JSONValue =
            body.readableBytes == 0 ? .null : (try? JSONValue(parsing: Array(body.readableBytesView))) ?? .null
        return .object(
            JSONObject([
                "status": .integer(Int64(response.status.code)), "headers": .object(headers), "body": json,
            ]))
    }

    /// The whole body of a response.
    static func body(of response: Response) async throws -> ByteBuffer {
        let sink = BodySink()
        try await response.body.write(CollectingWriter(sink: sink))
        return sink.bytes
    }

    private final class BodySink {
        var bytes = ByteBuffer()
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let sink: BodySink

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            sink.bytes.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
