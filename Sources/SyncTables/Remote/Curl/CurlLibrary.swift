#if canImport(CCurl)
    import CCurl

    /// Process-wide libcurl set-up, done once.
    enum CurlLibrary {
        /// The result of `curl_global_init`, computed on first use.
        ///
        /// A `static let` is initialised exactly once, thread-safely, by the Swift runtime, which is what
        /// libcurl requires of `curl_global_init` (older libcurl versions are not safe to initialise from two
        /// threads at once). SyncTables never calls `curl_global_cleanup`: other code in the process may still
        /// use libcurl, and the OS reclaims everything at exit.
        private static let initialization: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

        /// Initialises libcurl if needed, or explains why it cannot be used.
        static func initialize() throws(TransportError) {
            let code = initialization
            guard code == CURLE_OK else {
                throw TransportError(.other, message: "libcurl failed to initialise: \(CurlLibrary.describe(code))")
            }
        }

        /// libcurl's text for a result code.
        static func describe(_ code: CURLcode) -> String {
            guard let text = curl_easy_strerror(code) else { return "curl error \(code.rawValue)" }
            return String(cString: text)
        }
    }
#endif
