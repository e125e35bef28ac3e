#if canImport(CCurl)
    import CCurl

    /// A libcurl easy handle that the loop thread reuses from transfer to transfer, with the memory its
    /// options point at (error buffer, header list).
    ///
    /// Reusing a handle keeps its DNS and TLS session caches warm; the connections themselves live in the
    /// multi handle's connection cache, so keep-alive works whichever handle runs the next request.
    /// Only the loop thread uses a handle.
    final class CurlEasyHandle {
        let raw: UnsafeMutableRawPointer
        private let errorBuffer: UnsafeMutablePointer<CChar>
        private var headerList: UnsafeMutablePointer<curl_slist>?

        init?() {
            guard let raw = curl_easy_init() else { return nil }
            self.raw = raw
            errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        }

        deinit {
            curl_easy_cleanup(raw)
            curl_slist_free_all(headerList)
            errorBuffer.deallocate()
        }

        /// libcurl's detailed message for the last failure of this handle, if it wrote one.
        var errorDetail: String { String(cString: errorBuffer) }

        /// The status code of the last response, 0 when none was received.
        var responseCode: Int {
            var code = 0
            _ = synctables_easy_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &code)
            return code
        }

        /// Resets the handle and configures it to run `transfer`.
        ///
        /// The transfer is passed to the callbacks as an unretained pointer: the loop keeps the transfer alive
        /// for as long as the handle sits in the multi handle, which is the only time callbacks run.
        func prepare(for transfer: CurlTransfer, connectTimeout: Duration) throws(TransportError) {
            curl_easy_reset(raw)
            curl_slist_free_all(headerList)
            headerList = nil
            errorBuffer[0] = 0

            let request = transfer.request
            guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw TransportError(.invalidRequest, message: "Only http and https URLs are supported: \(request.url)")
            }
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            var codes: [CURLcode] = []
            codes.append(synctables_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer))
            codes.append(synctables_easy_setopt_string(raw, CURLOPT_URL, request.url.absoluteString))
            codes.append(synctables_easy_setopt_string(raw, CURLOPT_PROTOCOLS_STR, "http,https"))
            // Signals are process-wide; a library must not install handlers or be interrupted by them.
            codes.append(synctables_easy_setopt_long(raw, CURLOPT_NOSIGNAL, 1))
            codes.append(synctables_easy_setopt_long(raw, CURLOPT_FOLLOWLOCATION, 0))
            codes.append(synctables_easy_setopt_long(raw, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)))
            // "" asks for every encoding this libcurl decodes (gzip at least) and has it decode the body.
            codes.append(synctables_easy_setopt_string(raw, CURLOPT_ACCEPT_ENCODING, ""))
            // A streamed body may last for hours: the loop bounds only its head (CurlTransfer.headDeadline).
            if transfer.uploadSource != nil {
                // An upload may take long on a slow link: the limit applies to stalls instead (under 1 byte/s).
                let stallSeconds = max(1, Int(request.timeout.components.seconds))
                codes.append(synctables_easy_setopt_long(raw, CURLOPT_LOW_SPEED_LIMIT, 1))
                codes.append(synctables_easy_setopt_long(raw, CURLOPT_LOW_SPEED_TIME, stallSeconds))
            } else if transfer.streamingBody == nil {
                codes.append(
                    synctables_easy_setopt_long(raw, CURLOPT_TIMEOUT_MS, Int(request.timeout.wholeMilliseconds)))
            }
            let connectLimit = min(connectTimeout, request.timeout)
            codes.append(
                synctables_easy_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, Int(connectLimit.wholeMilliseconds)))
            codes.append(synctables_easy_setopt_write_callback(raw, CURLOPT_HEADERFUNCTION, CurlCallbacks.header))
            codes.append(synctables_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, context))
            codes.append(synctables_easy_setopt_write_callback(raw, CURLOPT_WRITEFUNCTION, CurlCallbacks.body))
            codes.append(synctables_easy_setopt_pointer(raw, CURLOPT_WRITEDATA, context))
            codes.append(synctables_easy_setopt_long(raw, CURLOPT_NOPROGRESS, 0))
            codes.append(synctables_easy_setopt_xferinfo_callback(raw, CurlCallbacks.progress))
            codes.append(synctables_easy_setopt_pointer(raw, CURLOPT_XFERINFODATA, context))
            if let uploadSource = transfer.uploadSource {
                codes.append(contentsOf: try configureUpload(request, from: uploadSource, context: context))
            } else {
                codes.append(contentsOf: try configureMethodAndBody(request))
            }
            headerList = try Self.makeHeaderList(request.headers)
            codes.append(synctables_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, headerList))
            if let failure = codes.first(where: { $0 != CURLE_OK }) {
                throw TransportError(curlCode: failure, detail: "libcurl rejected an option: \(errorDetail)")
            }
        }

        /// Upload mode: libcurl sends `Content-Length: <length>` and pulls the body through the read callback;
        /// another method name than PUT replaces it.
        private func configureUpload(
            _ request: TransportRequest, from source: UploadBodySource, context: UnsafeMutableRawPointer
        ) throws(TransportError) -> [CURLcode] {
            let method = try Self.validatedMethod(request.method)
            var codes = [
                synctables_easy_setopt_long(raw, CURLOPT_UPLOAD, 1),
                synctables_easy_setopt_offset(raw, CURLOPT_INFILESIZE_LARGE, curl_off_t(source.length)),
                synctables_easy_setopt_read_callback(raw, CurlCallbacks.read),
                synctables_easy_setopt_pointer(raw, CURLOPT_READDATA, context),
            ]
            if request.method != .put {
                codes.append(synctables_easy_setopt_string(raw, CURLOPT_CUSTOMREQUEST, method))
            }
            return codes
        }

        private static func validatedMethod(_ method: TransportMethod) throws(TransportError) -> String {
            let method = method.rawValue
            guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw TransportError(.invalidRequest, message: "Invalid HTTP method \"\(method)\".")
            }
            return method
        }

        private func configureMethodAndBody(_ request: TransportRequest) throws(TransportError) -> [CURLcode] {
            let method = try Self.validatedMethod(request.method)
            switch (request.method, request.body) {
            case (.get, nil):
                return [synctables_easy_setopt_long(raw, CURLOPT_HTTPGET, 1)]
            case (.head, nil):
                return [synctables_easy_setopt_long(raw, CURLOPT_NOBODY, 1)]
            case (_, nil) where request.method != .post:
                return [synctables_easy_setopt_string(raw, CURLOPT_CUSTOMREQUEST, method)]
            default:
                // POST mode sends the body with Content-Length; another method name then replaces "POST".
                let body = request.body ?? []
                var codes = [
                    synctables_easy_setopt_long(raw, CURLOPT_POST, 1),
                    synctables_easy_setopt_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                ]
                // COPYPOSTFIELDS copies the bytes now, so the array need not outlive this call.
                codes.append(
                    body.isEmpty
                        ? synctables_easy_setopt_string(raw, CURLOPT_COPYPOSTFIELDS, "")
                        : body.withUnsafeBytes {
                            synctables_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
                        }
                )
                if request.method != .post {
                    codes.append(synctables_easy_setopt_string(raw, CURLOPT_CUSTOMREQUEST, method))
                }
                return codes
            }
        }

        private static func makeHeaderList(
            _ headers: TransportHeaders
        ) throws(TransportError) -> UnsafeMutablePointer<curl_slist>? {
            var list: UnsafeMutablePointer<curl_slist>?
            var lines = [String]()
            for field in headers.fields {
                let isToken = !field.name.isEmpty && field.name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x3A }
                guard isToken, !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                    throw TransportError(.invalidRequest, message: "Invalid header field \"\(field.name)\".")
                }
                // "Name;" is libcurl's spelling of a header with an empty value ("Name:" would remove it).
                lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
            }
            // Without this libcurl waits for "100 Continue" before sending larger bodies: a wasted round trip.
            if !headers.contains("Expect") { lines.append("Expect:") }
            for line in lines {
                guard let appended = curl_slist_append(list, line) else {
                    curl_slist_free_all(list)
                    throw TransportError(.other, message: "Out of memory building the header list.")
                }
                list = appended
            }
            return list
        }
    }

    /// The C callbacks libcurl invokes on the loop thread; each receives its ``CurlTransfer`` as the
    /// unretained context pointer set in ``CurlEasyHandle/prepare(for:connectTimeout:)``.
    enum CurlCallbacks {
        static let header: curl_write_callback = { data, size, count, context in
            guard let context else { return 0 }
            let length = size * count
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
            return length
        }

        static let body: curl_write_callback = { data, size, count, context in
            guard let context else { return 0 }
            let length = size * count
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let taken = transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length))
            return taken ? length : synctables_write_pause()
        }

        /// Pulls the next bytes of an upload's body; a reader's failure aborts the transfer.
        static let read: curl_read_callback = { buffer, size, count, context in
            guard let context, let buffer else { return synctables_read_abort() }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let destination = UnsafeMutableRawBufferPointer(start: buffer, count: size * count)
            return transfer.uploadSource?.read(into: destination) ?? synctables_read_abort()
        }

        /// Returning non-zero aborts the transfer (`CURLE_ABORTED_BY_CALLBACK`) once the task is cancelled.
        static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.isCancelled ? 1 : 0
        }
    }
#endif
