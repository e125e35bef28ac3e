#if canImport(CCurl)
    import CCurl
    @_spi(SyncTablesTools) import SyncTablesCore

    /// One request travelling through a ``CurlTransport``: the request, the caller's continuation, the
    /// cancellation flag and the response as libcurl delivers it.
    ///
    /// Thread confinement: `request` is immutable; `state` is guarded by its lock (the caller's task, its
    /// cancellation handler and the loop thread all touch it); the response buffers and `easyHandle` are
    /// touched only by the loop thread (libcurl calls the callbacks from `curl_multi_perform` on that thread).
    /// That is what makes `@unchecked Sendable` sound.
    final class CurlTransfer: @unchecked Sendable {
        private struct State {
            var continuation: CheckedContinuation<TransportResponse, any Error>?
            var isCancelled = false
            var isFinished = false
        }

        let request: TransportRequest
        private let state = LockedState(State())

        // Loop thread only.
        var easyHandle: CurlEasyHandle?
        var responseFields: [TransportHeaders.Field] = []
        var responseBody: [UInt8] = []
        /// Whether the blank line ending the final response's header block arrived: libcurl reports a
        /// connection closed inside the headers as a success with what it had read.
        var receivedWholeHead = false

        init(request: TransportRequest) {
            self.request = request
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

        /// Resumes the caller with the outcome, at most once.
        func finish(_ result: Result<TransportResponse, any Error>) {
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

        /// Appends body bytes.
        func receiveBody(_ bytes: UnsafeRawBufferPointer) {
            responseBody.append(contentsOf: bytes)
        }
    }
#endif
