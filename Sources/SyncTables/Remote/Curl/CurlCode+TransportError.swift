#if canImport(CCurl)
    import CCurl

    extension TransportError {
        /// Classifies a failed libcurl transfer.
        init(curlCode code: CURLcode, detail: String) {
            let message = detail.isEmpty ? CurlLibrary.describe(code) : detail
            let kind: Kind
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                kind = .connectionFailed
            case CURLE_OPERATION_TIMEDOUT:
                kind = .timedOut
            case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE,
                CURLE_HTTP2, CURLE_HTTP2_STREAM:
                kind = .connectionLost
            case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_TOO_MANY_REDIRECTS:
                kind = .invalidResponse
            case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT:
                kind = .invalidRequest
            case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
                CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
                kind = .secureConnectionFailed
            default:
                kind = .other
            }
            self.init(kind, message: message)
        }
    }
#endif
