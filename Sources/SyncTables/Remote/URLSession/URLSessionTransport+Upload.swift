import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport: UploadingHTTPTransport {
    /// Sends the request through the session with a body that URLSession pulls from `body` as it sends, and
    /// waits for the whole response (see ``UploadingHTTPTransport``).
    ///
    /// - Throws: ``TransportError`` when no response arrives, `CancellationError` when the task is cancelled,
    ///   and what the body's reader throws.
    public func upload(
        _ request: TransportRequest, body: UploadBody, progress: (@Sendable (_ sentBytes: Int64) -> Void)?
    ) async throws -> TransportResponse {
        try Task.checkCancellation()
        let source = try UploadBodySource(body, progress: progress)
        var urlRequest = Self.makeURLRequest(request)
        urlRequest.httpBody = nil
        let taskBox = LockedState<URLSessionDataTask?>(nil)
        urlRequest.httpBodyStream = UploadBodyInputStream(source: source) {
            // Not on the session's own queue, which is reading the stream and which cancel waits for.
            let task = taskBox.withLock { $0 }
            DispatchQueue.global().async { task?.cancel() }
        }
        let cancelled = LockedState(false)
        let outcome: Result<(Data, URLResponse), any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: .success((data ?? Data(), response)))
                    } else {
                        continuation.resume(returning: .failure(error ?? URLError(.unknown)))
                    }
                }
                taskBox.withLock { $0 = task }
                if cancelled.withLock({ $0 }) { task.cancel() }
                task.resume()
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
            taskBox.withLock { $0 }?.cancel()
        }
        switch outcome {
        case .success(let (data, response)):
            guard let httpResponse = response as? HTTPURLResponse else {
                throw TransportError(.invalidResponse, message: "The response is not an HTTP response.")
            }
            return TransportResponse(
                status: httpResponse.statusCode, headers: Self.headers(of: httpResponse), body: [UInt8](data))
        case .failure(let error):
            if let failure = source.failure { throw failure }
            if cancelled.withLock({ $0 }) { throw CancellationError() }
            if let error = error as? URLError { throw Self.translate(error) }
            throw TransportError(.other, message: String(describing: error))
        }
    }
}
