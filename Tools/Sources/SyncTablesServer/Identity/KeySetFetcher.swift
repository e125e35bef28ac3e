import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads the text of a JSON Web Key Set from its ``JWTVerification/KeySource``.
///
/// URLs are fetched with Foundation's `URLSession` (on Linux, FoundationNetworking over libcurl, which the
/// library already links): a key set is fetched at start and then rarely, so a client of its own (and its
/// event loops) would buy nothing.
enum KeySetFetcher {
    /// The longest a fetch of a key set URL may take.
    static let timeout: TimeInterval = 10
    /// The largest key set accepted, in bytes.
    static let maxSize = 1024 * 1024

    /// The key set's bytes.
    static func fetch(_ source: JWTVerification.KeySource) async throws(KeySetFetchError) -> Data {
        switch source {
        case .file(let path):
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw .unreadable("\(path): \(error.localizedDescription)")
            }
        case .url(let url):
            try checkScheme(of: url)
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await URLSession.shared.data(for: request)
            } catch {
                throw .unreadable("\(url): \(error.localizedDescription)")
            }
            guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
                throw .unreadable("\(url): HTTP status \((response as? HTTPURLResponse)?.statusCode ?? 0)")
            }
            guard data.count <= maxSize else { throw .unreadable("\(url): larger than \(maxSize) bytes") }
            return data
        }
    }

    /// Refuses anything but `https`, and plain `http` to a loopback host.
    static func checkScheme(of url: URL) throws(KeySetFetchError) {
        switch url.scheme?.lowercased() {
        case "https":
            return
        case "http" where ["127.0.0.1", "::1", "[::1]", "localhost"].contains(url.host?.lowercased() ?? ""):
            return
        default:
            throw .insecureURL(url)
        }
    }
}

/// Why the keys could not be read.
enum KeySetFetchError: Error, CustomStringConvertible {
    /// The file or URL could not be read.
    case unreadable(String)
    /// The URL is neither `https` nor `http` on a loopback host.
    case insecureURL(URL)

    var description: String {
        switch self {
        case .unreadable(let reason): "cannot read the JSON Web Key Set: \(reason)"
        case .insecureURL(let url): "the JSON Web Key Set URL \(url) must be https (http only on a loopback host)"
        }
    }
}
