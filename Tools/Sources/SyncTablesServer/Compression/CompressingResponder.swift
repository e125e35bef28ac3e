import HTTPTypes
import Hummingbird
import NIOCore
@_spi(SyncTablesTools) import SyncTablesCore

/// Gzips the responses of another responder for clients that accept it, per ``ResponseCompression``.
///
/// Batch results are not compressed one by one: the batch's own response is, as a whole. Change feeds
/// (`text/event-stream`) are never compressed: a compressor would hold events back until it had enough to write.
/// Blobs are never compressed either: they stream from storage, and `Range` requests address their stored bytes.
struct CompressingResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ServerRequestContext {
    typealias Context = ServerRequestContext

    let inner: Inner
    let compression: ResponseCompression

    func respond(to request: Request, context: Context) async throws -> Response {
        var response = try await inner.respond(to: request, context: context)
        guard request.method != .head, !Self.isEventStream(response), !BlobSettings.isBlobPath(request.uri.path),
            response.status != .noContent,
            response.status != .notModified,
            response.headers[.contentEncoding] == nil,
            let length = response.body.contentLength, compression.applies(toLength: length)
        else { return response }
        // The body depends on Accept-Encoding from this size on, whether this client gets it gzipped or not.
        response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        guard AcceptEncoding.allowsGzip(request.headers[values: .acceptEncoding]) else { return response }
        let body = try await ResponseCollector.body(of: response)
        guard let compressed = Gzip.compress(Array(body.readableBytesView)) else {
            response.body = ResponseBody(byteBuffer: body)  // collected: sent as it was
            return response
        }
        response.headers[.contentEncoding] = "gzip"
        response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: compressed))  // also sets Content-Length
        return response
    }

    /// Whether the response is a stream of server-sent events (a change feed).
    static func isEventStream(_ response: Response) -> Bool {
        response.headers[.contentType]?.lowercased().hasPrefix("text/event-stream") ?? false
    }
}
