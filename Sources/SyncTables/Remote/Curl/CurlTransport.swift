#if canImport(CCurl)
    import CCurl

    /// An ``HTTPTransport`` on the system libcurl: the default transport on Linux.
    ///
    /// One dedicated thread drives a libcurl multi handle for all requests of the transport, so blocking
    /// network work never runs on Swift's cooperative thread pool, any number of requests proceed at once,
    /// and connections are kept alive and reused between requests. Easy handles are pooled and reused.
    /// Cancelling the calling task aborts its transfer at once and throws `CancellationError`.
    ///
    /// It streams too (``stream(_:)``): the body's chunks come as libcurl receives them, and a reader that falls
    /// behind by about a mebibyte pauses the transfer (libcurl stops reading the socket) until it catches up.
    ///
    /// It uploads too (``upload(_:body:progress:)``): libcurl pulls the body from its reader as the socket takes it.
    ///
    /// Create one transport and share it (it is `Sendable`); its thread ends when the last reference goes.
    ///
    /// ```swift
    /// let transport = try CurlTransport()
    /// let response = try await transport.send(TransportRequest(method: .get, url: url))
    /// ```
    public final class CurlTransport: StreamingHTTPTransport, UploadingHTTPTransport {
        /// Tuning for a ``CurlTransport``.
        public struct Configuration: Sendable, Hashable {
            /// The longest a connection attempt may take (never longer than the request's own timeout).
            public var connectTimeout: Duration
            /// How many idle easy handles to keep for reuse.
            public var maximumIdleHandles: Int
            /// How many open connections the connection cache keeps alive.
            public var maximumConnections: Int

            /// Creates a configuration.
            public init(
                connectTimeout: Duration = .seconds(10), maximumIdleHandles: Int = 8, maximumConnections: Int = 16
            ) {
                self.connectTimeout = connectTimeout
                self.maximumIdleHandles = maximumIdleHandles
                self.maximumConnections = maximumConnections
            }
        }

        /// The tuning this transport runs with.
        public let configuration: Configuration
        private let loop: CurlMultiLoop

        /// Creates a transport and starts its thread.
        ///
        /// - Throws: ``TransportError`` when libcurl cannot initialise.
        public init(configuration: Configuration = Configuration()) throws(TransportError) {
            self.configuration = configuration
            loop = try CurlMultiLoop(configuration: configuration)
        }

        deinit {
            loop.shutdown()
        }

        /// The loop object, for tests that check the thread lets go of it once the transport is gone.
        package var loopForTesting: AnyObject { loop }

        /// Sends the request on the transport's thread and waits for the whole response.
        ///
        /// - Throws: ``TransportError`` when no response arrives, `CancellationError` when the task is cancelled.
        public func send(_ request: TransportRequest) async throws -> TransportResponse {
            try await run(CurlTransfer(request: request))
        }

        /// Sends the request on the transport's thread and returns once the response's head arrived; the body
        /// follows chunk by chunk (see ``StreamingHTTPTransport``).
        ///
        /// - Throws: ``TransportError`` when no head arrives in time, `CancellationError` when the task is cancelled.
        public func stream(_ request: TransportRequest) async throws -> StreamingResponse {
            let body = StreamingBodyBuffer()
            let transfer = CurlTransfer(request: request, streamingInto: body)
            // Made before the head arrives so that a caller cancelled in between still cancels the transfer.
            let responseBody = body.makeBody(control: CurlStreamControl(loop: loop, transfer: transfer))
            let head = try await run(transfer)
            return StreamingResponse(status: head.status, headers: head.headers, body: responseBody)
        }

        /// Sends the request on the transport's thread with a body pulled from `body` as the socket takes it,
        /// and waits for the whole response (see ``UploadingHTTPTransport``).
        ///
        /// - Throws: ``TransportError`` when no response arrives, `CancellationError` when the task is cancelled,
        ///   and what the body's reader throws.
        public func upload(
            _ request: TransportRequest, body: UploadBody, progress: (@Sendable (_ sentBytes: Int64) -> Void)?
        ) async throws -> TransportResponse {
            try Task.checkCancellation()
            let source = try UploadBodySource(body, progress: progress)
            do {
                return try await run(CurlTransfer(request: request, uploadingFrom: source))
            } catch {
                // The reader's own error explains the abort better than libcurl's "aborted by callback".
                throw source.failure ?? error
            }
        }

        private func run(_ transfer: CurlTransfer) async throws -> TransportResponse {
            try Task.checkCancellation()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if transfer.attach(continuation) {
                        loop.submit(transfer)
                    }
                }
            } onCancel: {
                transfer.markCancelled()
                loop.cancel(transfer)
            }
        }
    }

    /// How a streaming body's reader reaches its transfer on the loop thread.
    private struct CurlStreamControl: StreamingTransferControl {
        let loop: CurlMultiLoop
        let transfer: CurlTransfer

        func resumeReceiving() {
            loop.resume(transfer)
        }

        func cancelTransfer() {
            transfer.markCancelled()
            loop.cancel(transfer)
        }
    }
#endif
