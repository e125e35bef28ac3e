#if canImport(CCurl)
    import CCurl
    import Foundation
    @_spi(SyncTablesTools) import SyncTablesCore

    /// The one dedicated thread of a ``CurlTransport``: it owns a libcurl multi handle, runs every transfer
    /// on it, and hands results back to the waiting tasks.
    ///
    /// Why a multi handle on one thread rather than a thread per easy handle: blocking `curl_easy_perform`
    /// calls would need one thread per concurrent request (threads that must never come from the
    /// cooperative pool), whereas one `curl_multi_poll` loop serves any number of requests with one thread,
    /// shares one connection cache between them (keep-alive for every transfer, not per handle), and can
    /// abandon a cancelled transfer at once with `curl_multi_remove_handle` instead of waiting for its next
    /// progress callback.
    ///
    /// Other threads talk to the loop only through `inbox` (under its lock) followed by `curl_multi_wakeup`,
    /// which libcurl documents as callable from any thread. The wake-up happens under the inbox lock and
    /// after checking `isClosed`, so no thread can wake a multi handle that the loop already cleaned up.
    /// Everything else (`active`, `idleHandles`) belongs to the loop thread alone, hence `@unchecked Sendable`.
    final class CurlMultiLoop: @unchecked Sendable {
        private enum Command {
            case start(CurlTransfer)
            case cancel(CurlTransfer)
            /// The reader of a streaming body caught up: unpause the transfer.
            case resume(CurlTransfer)
        }

        private struct Inbox {
            var commands: [Command] = []
            var isShuttingDown = false
            var isClosed = false
        }

        private let multi: UnsafeMutableRawPointer
        private let configuration: CurlTransport.Configuration
        private let inbox = LockedState(Inbox())

        // Loop thread only.
        private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        private var idleHandles: [CurlEasyHandle] = []
        /// Streaming transfers whose head may not have come yet (dropped from the list once it came).
        private var streamsAwaitingHead: [CurlTransfer] = []

        /// Creates the multi handle and starts the loop thread.
        init(configuration: CurlTransport.Configuration) throws(TransportError) {
            try CurlLibrary.initialize()
            guard let multi = curl_multi_init() else {
                throw TransportError(.other, message: "libcurl could not create a multi handle.")
            }
            self.multi = multi
            self.configuration = configuration
            _ = synctables_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maximumConnections)
            let thread = Thread { [self] in run() }
            thread.name = "SyncTables.CurlTransport"
            thread.start()
        }

        /// Queues a transfer; it fails with ``TransportError/Kind/cancelled`` if the loop is shutting down.
        func submit(_ transfer: CurlTransfer) {
            if !post(.start(transfer)) {
                transfer.finish(.failure(TransportError(.cancelled, message: "The transport has shut down.")))
            }
        }

        /// Asks the loop to abandon a transfer whose task was cancelled.
        func cancel(_ transfer: CurlTransfer) {
            _ = post(.cancel(transfer))
        }

        /// Asks the loop to let a streaming transfer that its full buffer paused receive again.
        func resume(_ transfer: CurlTransfer) {
            _ = post(.resume(transfer))
        }

        /// Stops the loop: in-flight transfers fail with ``TransportError/Kind/cancelled`` and the thread exits.
        func shutdown() {
            inbox.withLock { inbox in
                guard !inbox.isClosed else { return }
                inbox.isShuttingDown = true
                curl_multi_wakeup(multi)
            }
        }

        private func post(_ command: Command) -> Bool {
            inbox.withLock { inbox in
                guard !inbox.isShuttingDown, !inbox.isClosed else { return false }
                inbox.commands.append(command)
                curl_multi_wakeup(multi)
                return true
            }
        }

        // MARK: The loop thread

        private func run() {
            while true {
                let (commands, isShuttingDown) = inbox.withLock { inbox in
                    defer { inbox.commands.removeAll(keepingCapacity: true) }
                    return (inbox.commands, inbox.isShuttingDown)
                }
                for command in commands {
                    switch command {
                    case .start(let transfer): start(transfer)
                    case .cancel(let transfer): abandon(transfer, with: CancellationError())
                    case .resume(let transfer): unpause(transfer)
                    }
                }
                if isShuttingDown { break }
                if !active.isEmpty {
                    var running: Int32 = 0
                    curl_multi_perform(multi, &running)
                    collectFinishedTransfers()
                }
                let nextHeadDeadline = failTransfersWithoutHeadInTime()
                // Sleeps until a socket is ready, a libcurl timer is due (libcurl shortens the wait itself),
                // a streaming transfer's head is due, or another thread calls curl_multi_wakeup.
                curl_multi_poll(multi, nil, 0, pollTimeout(until: nextHeadDeadline), nil)
            }
            closeDown()
        }

        private func start(_ transfer: CurlTransfer) {
            guard !transfer.isCancelled else {
                transfer.finish(.failure(CancellationError()))
                return
            }
            guard let handle = idleHandles.popLast() ?? CurlEasyHandle() else {
                transfer.finish(.failure(TransportError(.other, message: "libcurl could not create an easy handle.")))
                return
            }
            do {
                try handle.prepare(for: transfer, connectTimeout: configuration.connectTimeout)
            } catch {
                recycle(handle)
                transfer.finish(.failure(error))
                return
            }
            let code = curl_multi_add_handle(multi, handle.raw)
            guard code == CURLM_OK else {
                recycle(handle)
                let message = String(cString: curl_multi_strerror(code))
                transfer.finish(.failure(TransportError(.other, message: message)))
                return
            }
            transfer.easyHandle = handle
            if transfer.streamingBody != nil {
                transfer.headDeadline = .now + transfer.request.timeout
                streamsAwaitingHead.append(transfer)
            }
            active[handle.raw] = transfer
        }

        /// Lets a paused streaming transfer receive again; libcurl may hand it the bytes it held back at once,
        /// from inside `curl_easy_pause`, on this thread.
        private func unpause(_ transfer: CurlTransfer) {
            guard let handle = transfer.easyHandle, active[handle.raw] === transfer else { return }
            let code = synctables_easy_unpause(handle.raw)
            if code != CURLE_OK {
                abandon(transfer, with: TransportError(curlCode: code, detail: handle.errorDetail))
            }
        }

        /// Fails the streaming transfers whose head is overdue; returns the earliest deadline still pending.
        private func failTransfersWithoutHeadInTime() -> ContinuousClock.Instant? {
            guard !streamsAwaitingHead.isEmpty else { return nil }
            let now = ContinuousClock.now
            var overdue: [CurlTransfer] = []
            var earliest: ContinuousClock.Instant?
            streamsAwaitingHead.removeAll { transfer in
                guard let handle = transfer.easyHandle, active[handle.raw] === transfer, !transfer.deliveredHead,
                    let deadline = transfer.headDeadline
                else { return true }
                if deadline <= now {
                    overdue.append(transfer)
                    return true
                }
                earliest = min(earliest ?? deadline, deadline)
                return false
            }
            for transfer in overdue {
                let limit = transfer.request.timeout
                abandon(transfer, with: TransportError(.timedOut, message: "No response within \(limit)."))
            }
            return earliest
        }

        private func pollTimeout(until headDeadline: ContinuousClock.Instant?) -> Int32 {
            guard !active.isEmpty else { return 60_000 }
            guard let headDeadline else { return 1_000 }
            let wait = (headDeadline - .now).wholeMilliseconds
            return Int32(min(1_000, wait))
        }

        private func collectFinishedTransfers() {
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                // Read the result before removing the handle: the message does not outlive the removal.
                let code = synctables_multi_message_result(message)
                guard let transfer = active.removeValue(forKey: easy), let handle = transfer.easyHandle else {
                    continue
                }
                curl_multi_remove_handle(multi, easy)
                transfer.easyHandle = nil
                let result = outcome(of: transfer, code: code, handle: handle)
                recycle(handle)
                transfer.finish(result)
            }
        }

        private func outcome(
            of transfer: CurlTransfer,
            code: CURLcode,
            handle: CurlEasyHandle
        ) -> Result<TransportResponse, any Error> {
            if transfer.isCancelled { return .failure(CancellationError()) }
            guard code == CURLE_OK else {
                return .failure(TransportError(curlCode: code, detail: handle.errorDetail))
            }
            let status = handle.responseCode
            guard status >= 100 else {
                return .failure(TransportError(.invalidResponse, message: "The response has no status code."))
            }
            guard transfer.receivedWholeHead else {
                return .failure(
                    TransportError(
                        .connectionLost, message: "The connection closed in the middle of the response headers."))
            }
            let response = TransportResponse(
                status: status,
                headers: TransportHeaders(transfer.responseFields),
                body: transfer.responseBody
            )
            return .success(response)
        }

        private func abandon(_ transfer: CurlTransfer, with error: any Error) {
            if let handle = transfer.easyHandle {
                active.removeValue(forKey: handle.raw)
                // Removing an unfinished transfer closes its connection; the handle itself stays reusable.
                curl_multi_remove_handle(multi, handle.raw)
                transfer.easyHandle = nil
                recycle(handle)
            }
            transfer.finish(.failure(error))
        }

        private func recycle(_ handle: CurlEasyHandle) {
            if idleHandles.count < configuration.maximumIdleHandles {
                idleHandles.append(handle)
            }
        }

        private func closeDown() {
            // Close the inbox first: from here on no thread calls curl_multi_wakeup on this multi handle.
            let leftovers = inbox.withLock { inbox in
                inbox.isClosed = true
                defer { inbox.commands.removeAll() }
                return inbox.commands
            }
            let shutDown = TransportError(.cancelled, message: "The transport has shut down.")
            for case .start(let transfer) in leftovers { transfer.finish(.failure(shutDown)) }
            for transfer in Array(active.values) { abandon(transfer, with: shutDown) }
            idleHandles.removeAll()
            curl_multi_cleanup(multi)
        }
    }
#endif
