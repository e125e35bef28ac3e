import Foundation

extension SyncClient {
    /// `true` when `url` is on the client's own scheme, host and port: pull follows `rel=next` links only
    /// there, so a server cannot redirect a pull (and its credentials) elsewhere.
    func isSameOrigin(_ url: URL) -> Bool {
        let base = configuration.url
        return url.scheme?.lowercased() == base.scheme?.lowercased()
            && url.host?.lowercased() == base.host?.lowercased()
            && (url.port ?? Self.defaultPort(url.scheme)) == (base.port ?? Self.defaultPort(base.scheme))
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
