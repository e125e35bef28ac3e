import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One streaming request of a ``URLSessionTransport``: the data task, the caller waiting for the head, and
/// the buffer the body's chunks go to.
///
/// The session delegate's callbacks arrive on one serial queue (``URLSessionStreamDelegate``); the caller's
/// task, its cancellation handler and the body's reader touch only `head` (behind its lock), the `Sendable`
/// buffer and the data task, whose `resume`, `suspend` and `cancel` URLSession allows from any thread. Apple's
/// URLSession stops reading a suspended data task, so a full buffer suspends the task until the reader
/// catches up. FoundationNetworking (Linux) keeps delivering data to a suspended task; there, a reader that
/// falls more than the buffer's bound behind fails the stream instead of letting memory grow.
final class URLSessionStream: Sendable {
    private struct Head {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var isDelivered = false
        var isCancelled = false
        /// Fails the head once the request's time limit passed; cancelled when the head comes.
        var timer: Task<Void, Never>?
    }

    let task: URLSessionDataTask
    let body = StreamingBodyBuffer()
    private let head = LockedState(Head())
    /// The queue the delegate's callbacks run on; resuming a suspended task goes through it too, so that it
    /// always comes after the callback that suspended it.
    private let delegateQueue: Foundation.OperationQueue

    init(task: URLSessionDataTask, delegateQueue: Foundation.OperationQueue) {
        self.task = task
        self.delegateQueue = delegateQueue
    }

    // MARK: The caller

    /// Starts the task and waits for the head, at most `timeout`.
    func start(headTimeout timeout: Duration) async throws -> TransportResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // URLSession's own time limit runs between packets and would cut a quiet stream: time the head here.
                let timer = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self?.failHead(TransportError(.timedOut, message: "No response within \(timeout)."))
                }
                let cancelledEarly = head.withLock { head -> Bool in
                    guard !head.isCancelled else { return true }
                    head.continuation = continuation
                    head.timer = timer
                    return false
                }
                if cancelledEarly {
                    timer.cancel()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                task.resume()
            }
        } onCancel: {
            head.withLock { $0.isCancelled = true }
            task.cancel()
        }
    }

    /// Fails the caller if the head has not come yet, and cancels the task.
    private func failHead(_ error: any Error) {
        let continuation = head.withLock { head -> CheckedContinuation<TransportResponse, any Error>? in
            guard !head.isDelivered else { return nil }
            head.isDelivered = true
            head.timer?.cancel()
            defer { head.continuation = nil }
            return head.continuation
        }
        guard let continuation else { return }
        body.end(throwing: error)
        task.cancel()
        continuation.resume(throwing: error)
    }

    // MARK: The delegate's callbacks (serial queue)

    func receive(_ response: URLResponse) {
        let continuation = head.withLock { head -> CheckedContinuation<TransportResponse, any Error>? in
            guard !head.isDelivered else { return nil }
            head.isDelivered = true
            head.timer?.cancel()
            defer { head.continuation = nil }
            return head.continuation
        }
        guard let http = response as? HTTPURLResponse else {
            continuation?.resume(
                throwing: TransportError(.invalidResponse, message: "The response is not an HTTP response."))
            task.cancel()
            return
        }
        continuation?.resume(
            returning: TransportResponse(status: http.statusCode, headers: URLSessionTransport.headers(of: http)))
    }

    func receive(_ data: Data) {
        body.append([UInt8](data))
        guard !body.hasRoom() else { return }
        #if canImport(FoundationNetworking)
            let limit = body.limit
            body.end(
                throwing: TransportError(
                    .other, message: "The reader fell more than \(limit) bytes behind the stream; it was cancelled."))
            task.cancel()
        #else
            task.suspend()
        #endif
    }

    func complete(with error: (any Error)?) {
        let failure = error.map { error in
            (error as? URLError).map(URLSessionTransport.translate) ?? TransportError(.other, message: "\(error)")
        }
        failHead(failure ?? TransportError(.invalidResponse, message: "The response ended before its head."))
        body.end(throwing: failure)
    }

    // MARK: The body's reader

    /// Lets a task that a full buffer suspended receive again.
    func resumeReceiving() {
        let task = task
        delegateQueue.addOperation { task.resume() }
    }
}

/// How a streaming body's reader reaches its data task.
struct URLSessionStreamControl: StreamingTransferControl {
    let stream: URLSessionStream

    func resumeReceiving() {
        stream.resumeReceiving()
    }

    func cancelTransfer() {
        stream.task.cancel()
    }
}
