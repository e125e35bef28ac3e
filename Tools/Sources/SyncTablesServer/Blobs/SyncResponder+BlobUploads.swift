import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SyncTablesCore

// Resumable uploads, the server side of the IETF draft "Resumable Uploads for HTTP"
// (draft-ietf-httpbis-resumable-upload, interop version 6, the version SwiftNIO's NIOResumableUpload speaks):
//
// - `PUT /sync/blobs/<sha256>` with `Upload-Complete` creates an upload resource and answers 201 with its
//   `Location` (`/sync/blobs/uploads/<token>`) and `Upload-Offset`; with `Upload-Complete: ?1` and the whole
//   body it finishes at once, like a plain PUT.
// - `HEAD <location>` answers 204 with `Upload-Offset`: how many bytes the server has.
// - `PATCH <location>` with `Upload-Offset` (409 with the real offset when it differs) appends its body;
//   `Upload-Complete: ?1` finishes: the bytes are hashed, stored as the blob, and the resource is gone.
// - `DELETE <location>` cancels.
//
// The bytes received before a connection drops are kept, in files that outlive a restart, until the upload
// finishes or expires. No 104 (Upload Resumption Supported) interim response is sent: Hummingbird's responders
// answer once; a client that wants the location before sending bytes creates the upload with an empty body.

extension SyncResponder {
    static let uploadCompleteField = HTTPField.Name("Upload-Complete")!
    static let uploadOffsetField = HTTPField.Name("Upload-Offset")!
    static let uploadInteropVersionField = HTTPField.Name("Upload-Draft-Interop-Version")!
    /// The draft's interop version this server speaks.
    static let uploadInteropVersion = "6"

    /// Whether a request asks for a resumable upload (it carries `Upload-Complete`).
    static func isResumable(_ request: Request) -> Bool {
        request.headers[uploadCompleteField] != nil
    }

    /// `Upload-Complete` as a structured-field boolean; 400 when it is not `?0` or `?1`.
    private static func uploadComplete(_ request: Request) throws -> Bool {
        switch request.headers[uploadCompleteField]?.trimmingCharacters(in: .whitespaces) {
        case "?1": return true
        case "?0": return false
        default: throw ServerError(.badRequest, "Upload-Complete must be ?0 or ?1.")
        }
    }

    /// Creates a resumable upload of `blob` with the request's body as its first bytes.
    func createUpload(
        _ blob: BlobHash, caller: Caller, request: Request, storage: any BlobStorage, access: BlobAccess?
    ) async throws -> Response {
        let complete = try Self.uploadComplete(request)
        try Self.checkUploadLength(request, limit: configuration.maxBlobBytes)
        let token = try await storage.createUpload(
            of: blob, owner: caller.subject, createdAt: configuration.clock.now())
        return try await appendAndMaybeComplete(
            token, blob: blob, offset: 0, complete: complete, request: request, storage: storage, created: true,
            uploader: caller, access: access)
    }

    /// Answers a request to an upload resource, `/sync/blobs/uploads/<token>`.
    func uploadResource(
        _ token: String, caller: Caller, request: Request, storage: any BlobStorage, access: BlobAccess?
    ) async throws -> Response {
        // Another caller's upload is as missing as one that never was.
        guard let upload = try await storage.upload(token), upload.owner == caller.subject else {
            throw ServerError(
                .notFound, "No upload \(token) is in progress.",
                headers: [Self.uploadInteropVersionField: Self.uploadInteropVersion])
        }
        switch request.method {
        case .head:
            return Response(status: .noContent, headers: Self.uploadHeaders(offset: upload.offset, complete: false))
        case .patch:
            let complete = try Self.uploadComplete(request)
            guard let offset = request.headers[Self.uploadOffsetField].flatMap({ Int64($0) }), offset >= 0 else {
                throw ServerError(.badRequest, "A PATCH to an upload carries Upload-Offset.")
            }
            guard offset == upload.offset else { throw Self.offsetConflict(upload.offset) }
            do {
                try Self.checkUploadLength(request, limit: configuration.maxBlobBytes - offset)
            } catch {
                try? await storage.cancelUpload(token)  // the blob it names cannot fit
                throw error
            }
            return try await appendAndMaybeComplete(
                token, blob: upload.blob, offset: offset, complete: complete, request: request, storage: storage,
                created: false, uploader: caller, access: access)
        case .delete:
            try await storage.cancelUpload(token)
            return Response(
                status: .noContent, headers: [Self.uploadInteropVersionField: Self.uploadInteropVersion])
        default:
            throw methodNotAllowed(request, allowed: "HEAD, PATCH, DELETE")
        }
    }

    private func appendAndMaybeComplete(
        _ token: String, blob: BlobHash, offset: Int64, complete: Bool, request: Request, storage: any BlobStorage,
        created: Bool, uploader: Caller, access: BlobAccess?
    ) async throws -> Response {
        let location = "\(BlobSettings.path)/uploads/\(token)"
        let received: Int64
        do {
            received = try await storage.append(
                to: token, at: offset, from: request.body, limit: configuration.maxBlobBytes)
        } catch BlobStorageError.offsetMismatch(let current) {
            throw Self.offsetConflict(current)
        } catch BlobStorageError.uploadBusy {
            throw ServerError(
                .conflict, "Another request is appending to this upload; ask its offset again.",
                headers: [Self.uploadInteropVersionField: Self.uploadInteropVersion])
        } catch BlobStorageError.tooLarge(let limit) {
            try? await storage.cancelUpload(token)
            throw ServerError(.contentTooLarge, "A blob may have at most \(limit) bytes; the upload is cancelled.")
        }
        guard complete else {
            var headers = Self.uploadHeaders(offset: received, complete: false)
            if created { headers[.location] = location }
            return Response(status: created ? .created : .noContent, headers: headers)
        }
        let outcome: BlobStoreOutcome
        do {
            outcome = try await storage.completeUpload(token)
        } catch BlobStorageError.hashMismatch(let expected, let received) {
            throw ServerError(
                .unprocessableContent,
                "The uploaded bytes hash to \(received), not to \(expected); nothing was stored.")
        }
        try await access?.recordUpload(of: blob, by: uploader, at: configuration.clock.now())
        var headers = Self.uploadHeaders(offset: received, complete: true)
        headers[.location] = "\(BlobSettings.path)/\(blob.hex)"
        headers[.eTag] = "\"\(blob.hex)\""
        let answer: JSONValue = .object(JSONObject(["sha256": .string(blob.hex), "size": .integer(received)]))
        return JSONResponse.json(answer, status: outcome == .created || created ? .created : .ok, headers: headers)
    }

    private static func uploadHeaders(offset: Int64, complete: Bool) -> HTTPFields {
        [
            uploadInteropVersionField: uploadInteropVersion, uploadOffsetField: String(offset),
            uploadCompleteField: complete ? "?1" : "?0", .cacheControl: "no-store",
        ]
    }

    private static func offsetConflict(_ current: Int64) -> ServerError {
        ServerError(
            .conflict, "The upload has \(current) bytes; resume from there.",
            headers: uploadHeaders(offset: current, complete: false))
    }

    private static func checkUploadLength(_ request: Request, limit: Int64) throws {
        if let declared = request.headers[.contentLength].flatMap({ Int64($0) }), declared > limit {
            throw ServerError(.contentTooLarge, "The upload would pass the blob size limit.")
        }
    }
}
