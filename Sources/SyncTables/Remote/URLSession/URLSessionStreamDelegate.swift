import Foundation
@_spi(SyncTablesTools) import SyncTablesCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of a ``URLSessionTransport``'s streaming session: it routes each data task's head, chunks
/// and completion to its ``URLSessionStream``.
///
/// `@unchecked Sendable`: URLSession calls it on the session's serial delegate queue, and its one piece of
/// state, the streams by task identifier, is behind a lock (the transport registers streams from callers' tasks).
final class URLSessionStreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let streams = LockedState<[Int: URLSessionStream]>([:])

    /// Routes the task's callbacks to `stream` until the task completes.
    func register(_ stream: URLSessionStream) {
        streams.withLock { $0[stream.task.taskIdentifier] = stream }
    }

    private func stream(for task: URLSessionTask) -> URLSessionStream? {
        streams.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        stream(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        stream(for: dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let stream = streams.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        stream?.complete(with: error)
    }
}
