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
/// ```swift
/// let transport = URLSessionTransport()
/// let response = try await transport.send(TransportRequest(method: .get, url: url))
/// ```
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport with its own ephemeral session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
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
        var headers = TransportHeaders()
        for (name, value) in httpResponse.allHeaderFields {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        return TransportResponse(status: httpResponse.statusCode, headers: headers, body: [UInt8](data))
    }

    private static func makeURLRequest(_ request: TransportRequest) -> URLRequest {
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
