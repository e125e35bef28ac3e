#if canImport(CCurl)
    import CCurl
    @_spi(SyncTablesTools) import SyncTablesCore

    /// One request travelling through a ``CurlTransport``: the request, the caller's continuation, the
    /// cancellation flag and the response as libcurl delivers it.
    ///
    /// Its request body is the request's bytes, or comes from an ``UploadBodySource``
    /// (``CurlTransport/upload(_:body:progress:)``) that libcurl's read callback pulls from.
    ///
    /// A transfer either collects the whole body (``CurlTransport/send(_:)``) or streams it
    /// (``CurlTransport/stream(_:)``): then the caller is resumed as soon as the head arrived, with an empty
    /// body, and the chunks go to `streamingBody`, whose bound pauses the transfer.
    ///
    /// Thread confinement: `request` and `streamingBody` are immutable (the buffer is `Sendable`); `state` is
    /// guarded by its lock (the caller's task, its cancellation handler and the loop thread all touch it); the
    /// response buffers, `easyHandle`, `headDeadline` and `deliveredHead` are touched only by the loop thread
    /// (libcurl calls the callbacks from `curl_multi_perform` and `curl_easy_pause` on that thread). That is
    /// what makes `@unchecked Sendable` sound.
    final class CurlTransfer: @unchecked Sendable {
        private struct State {
            var continuation: CheckedContinuation<TransportResponse, any Error>?
            var isCancelled = false
            var isFinished = false
        }

        let request: TransportRequest
        /// Where the body goes chunk by chunk, or `nil` to collect the whole body into the response.
        let streamingBody: StreamingBodyBuffer?
        /// Where the request body comes from chunk by chunk, or `nil` when it is the request's own bytes.
        let uploadSource: UploadBodySource?
        private let state = LockedState(State())

        // Loop thread only.
        var easyHandle: CurlEasyHandle?
        var responseFields: [TransportHeaders.Field] = []
        var responseBody: [UInt8] = []
        /// Whether the blank line ending the final response's header block arrived: libcurl reports a
        /// connection closed inside the headers as a success with what it had read.
        var receivedWholeHead = false
        /// For a streaming transfer: when the head must have arrived (libcurl's own time limit would cover
        /// the endless body too, so the loop enforces this one).
        var headDeadline: ContinuousClock.Instant?
        /// For a streaming transfer: whether the caller got the head already.
        var deliveredHead = false

        init(
            request: TransportRequest, streamingInto streamingBody: StreamingBodyBuffer? = nil,
            uploadingFrom uploadSource: UploadBodySource? = nil
        ) {
            self.request = request
            self.streamingBody = streamingBody
            self.uploadSource = uploadSource
        }

        /// Stores the continuation to resume later; returns `false` (after resuming it with
        /// `CancellationError`) when the task was cancelled before the transfer could start.
        func attach(_ continuation: CheckedContinuation<TransportResponse, any Error>) -> Bool {
            let cancelledEarly = state.withLock { state -> Bool in
                if state.isCancelled {
                    state.isFinished = true
                    return true
                }
                state.continuation = continuation
                return false
            }
            if cancelledEarly { continuation.resume(throwing: CancellationError()) }
            return !cancelledEarly
        }

        /// Marks the transfer cancelled; the progress callback and the loop thread act on the flag.
        func markCancelled() {
            state.withLock { $0.isCancelled = true }
        }

        /// `true` once the calling task was cancelled.
        var isCancelled: Bool { state.withLock { $0.isCancelled } }

        /// Ends the transfer: resumes the caller with the outcome unless it got the head already (at most once),
        /// and ends a streaming body, with the error if the transfer failed.
        func finish(_ result: Result<TransportResponse, any Error>) {
            resumeCaller(with: result)
            if case .failure(let error) = result {
                streamingBody?.end(throwing: error)
            } else {
                streamingBody?.end(throwing: nil)
            }
        }

        private func resumeCaller(with result: Result<TransportResponse, any Error>) {
            let continuation = state.withLock { state -> CheckedContinuation<TransportResponse, any Error>? in
                guard !state.isFinished else { return nil }
                state.isFinished = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(with: result)
        }

        // MARK: Response assembly (loop thread)

        /// Records one raw header line as libcurl hands it over (including its CRLF).
        func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
            // Drop the CRLF on the bytes: as Characters, "\r\n" is one grapheme that matches neither.
            var length = bytes.count
            while length > 0, bytes[length - 1] == 0x0D || bytes[length - 1] == 0x0A { length -= 1 }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<length]), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                // A new status line: an interim response (100 Continue) came first, so start over.
                responseFields.removeAll()
                receivedWholeHead = false
            } else if line.isEmpty {
                receivedWholeHead = true
                deliverHeadIfStreaming()
            } else if let first = line.first, first == " " || first == "\t", !responseFields.isEmpty {
                // Obsolete line folding continues the previous field's value.
                let last = responseFields.count - 1
                responseFields[last].value += " " + line.trimmingSpaces()
            } else if let colon = line.firstIndex(of: ":") {
                let name = String(line[..<colon])
                let value = String(line[line.index(after: colon)...]).trimmingSpaces()
                responseFields.append(TransportHeaders.Field(name: name, value: value))
            }
        }

        /// Takes body bytes; returns `false`, without taking them, when a streaming body is full: libcurl then
        /// pauses the transfer and offers the same bytes again once the loop resumes it.
        func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let streamingBody else {
                responseBody.append(contentsOf: bytes)
                return true
            }
            guard streamingBody.hasRoom() else { return false }
            streamingBody.append(Array(bytes))
            return true
        }

        /// Hands a streaming caller the final head (not an interim 1xx one) the moment its blank line arrives.
        private func deliverHeadIfStreaming() {
            guard streamingBody != nil, !deliveredHead, let status = easyHandle?.responseCode, status >= 200 else {
                return
            }
            deliveredHead = true
            resumeCaller(with: .success(TransportResponse(status: status, headers: TransportHeaders(responseFields))))
        }
    }
#endif
