import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

/// Request bodies sent compressed (`Content-Encoding: gzip`, which the capabilities document offers):
/// decoded before anything reads them, never to more than the body limit.
enum RequestBodyDecoding {
    /// The encodings a request body may come in, as the capabilities document lists them.
    static let acceptedEncodings = ["gzip"]

    /// The body as sent before encoding: 413 when it decodes past `limit` bytes (however small it was on
    /// the wire), 400 when it is not valid gzip, 415 for an encoding the server does not take.
    static func decoded(_ bytes: [UInt8], contentEncoding values: [String], limit: Int) throws(ServerError)
        -> [UInt8]
    {
        let codings = values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !codings.isEmpty, !bytes.isEmpty else { return bytes }
        guard codings.count == 1, codings[0] == "gzip" || codings[0] == "x-gzip" else {
            throw ServerError(
                .unsupportedMediaType,
                "The request body's Content-Encoding '\(values.joined(separator: ", "))' is not supported; "
                    + "send it as it is or gzipped.")
        }
        do {
            return try Gzip.decompress(bytes, limit: limit)
        } catch {
            switch error {
            case .tooLarge:
                throw ServerError(.contentTooLarge, "The request body is larger than the limit of \(limit) bytes.")
            case .corrupt:
                throw ServerError(.badRequest, "The request body is not valid gzip data.")
            }
        }
    }
}
