import Hummingbird

/// Reads a request body up to a size limit.
enum RequestBodyReader {
    /// The whole body, decoded when it came compressed; 413 as soon as it (or its declared
    /// `Content-Length`, or what it decodes to) exceeds `limit` bytes.
    static func collect(_ request: Request, limit: Int) async throws -> [UInt8] {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw tooLarge(limit)
        }
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            guard bytes.count + buffer.readableBytes <= limit else { throw tooLarge(limit) }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return try RequestBodyDecoding.decoded(
            bytes, contentEncoding: request.headers[values: .contentEncoding], limit: limit)
    }

    private static func tooLarge(_ limit: Int) -> ServerError {
        ServerError(.contentTooLarge, "The request body is larger than the limit of \(limit) bytes.")
    }
}
