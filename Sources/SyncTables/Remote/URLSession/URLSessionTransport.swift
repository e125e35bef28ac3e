import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` on Foundation's `URLSession`: the default transport on Apple platforms, and
/// available on Linux through FoundationNetworking.
///
/// The transport owns one long-lived session (ephemeral configuration: no cache, no cookies, no
/// credential storage), so connections are reused between requests. Cancelling the calling task cancels
/// the request and throws `CancellationError`.
///
/// It streams too (``stream(_:)``), on a second session whose delegate receives the body chunk by chunk.
/// A reader that falls about a mebibyte behind suspends the data task on Apple platforms until it catches up;
/// FoundationNetworking on Linux keeps delivering to a suspended task, so there the stream fails with
/// ``TransportError`` instead of buffering without bound (``CurlTransport``, Linux's default, pauses instead).
///
/// It uploads too (``upload(_:body:progress:)``): the body is a stream that URLSession pulls from as it sends.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let response = try await transport.send(TransportRequest(method: .get, url: url))
/// ```
public final class URLSessionTransport: StreamingHTTPTransport {
    let session: URLSession
    /// Streams need a delegate, which whole responses (`data(for:)`) do without: a session of their own.
    private let streamingSession: URLSession
    private let streamDelegate = URLSessionStreamDelegate()
    private let streamDelegateQueue = Foundation.OperationQueue()

    /// Creates a transport with its own ephemeral sessions.
    public init() {
        session = URLSession(configuration: Self.makeConfiguration())
        // One callback at a time, in order: a stream's chunks and its suspensions stay in sequence.
        streamDelegateQueue.maxConcurrentOperationCount = 1
        streamingSession = URLSession(
            configuration: Self.makeConfiguration(), delegate: streamDelegate, delegateQueue: streamDelegateQueue)
    }

    deinit {
        session.invalidateAndCancel()
        streamingSession.invalidateAndCancel()
    }

    private static func makeConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        return configuration
    }

    /// Sends the request through the session and waits for the whole response.
    ///
    /// - Throws: ``TransportError`` when no response arrives, `CancellationError` when the task is cancelled.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let urlRequest = Self.makeURLRequest(request)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw Self.translate(error)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportError(.other, message: String(describing: error))
        }
        guard let httpResponse = response as? HTTPURLResponse else {
            throw TransportError(.invalidResponse, message: "The response is not an HTTP response.")
        }
        return TransportResponse(
            status: httpResponse.statusCode, headers: Self.headers(of: httpResponse), body: [UInt8](data))
    }

    /// Sends the request through the streaming session and returns once the response's head arrived; the
    /// body follows chunk by chunk (see ``StreamingHTTPTransport``).
    ///
    /// - Throws: ``TransportError`` when no head arrives in time, `CancellationError` when the task is cancelled.
    public func stream(_ request: TransportRequest) async throws -> StreamingResponse {
        try Task.checkCancellation()
        var urlRequest = Self.makeURLRequest(request)
        // URLSession's limit is the longest silence between packets; the head is timed by the stream itself.
        urlRequest.timeoutInterval = Self.streamSilenceLimit
        let stream = URLSessionStream(
            task: streamingSession.dataTask(with: urlRequest), delegateQueue: streamDelegateQueue)
        streamDelegate.register(stream)
        // Made before the head arrives so that a caller cancelled in between still cancels the task.
        let body = stream.body.makeBody(control: URLSessionStreamControl(stream: stream))
        let head = try await stream.start(headTimeout: request.timeout)
        return StreamingResponse(status: head.status, headers: head.headers, body: body)
    }

    /// A day: a stream may stay quiet for long, and whoever reads it knows better when silence means trouble.
    private static let streamSilenceLimit: TimeInterval = 86_400

    /// The response's header fields.
    static func headers(of response: HTTPURLResponse) -> TransportHeaders {
        var headers = TransportHeaders()
        for (name, value) in response.allHeaderFields {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        return headers
    }

    static func makeURLRequest(_ request: TransportRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = request.timeout.timeInterval
        for field in request.headers.fields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if let body = request.body {
            urlRequest.httpBody = Data(body)
        }
        return urlRequest
    }

    /// Maps URLSession's errors onto the transport vocabulary; `-999` (cancelled) becomes
    /// `CancellationError` because this transport only cancels on behalf of the calling task.
    static func translate(_ error: URLError) -> any Error {
        let message = error.localizedDescription
        switch error.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return TransportError(.timedOut, message: message)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .internationalRoamingOff, .callIsActive, .dataNotAllowed:
            return TransportError(.connectionFailed, message: message)
        case .networkConnectionLost, .zeroByteResource, .cannotLoadFromNetwork, .badServerResponse, .unknown:
            // FoundationNetworking (Linux) reports a connection closed before any reply as
            // badServerResponse ("Empty reply from server") and a body cut short as unknown (-1).
            return TransportError(.connectionLost, message: message)
        case .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .httpTooManyRedirects, .redirectToNonExistentLocation:
            return TransportError(.invalidResponse, message: message)
        case .badURL, .unsupportedURL:
            return TransportError(.invalidRequest, message: message)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            return TransportError(.secureConnectionFailed, message: message)
        default:
            return TransportError(.other, message: "\(message) (URLError \(error.code.rawValue))")
        }
    }
}
