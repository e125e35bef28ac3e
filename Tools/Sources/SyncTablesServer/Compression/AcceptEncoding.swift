import Foundation

/// What an `Accept-Encoding` request header allows (RFC 9110 §12.5.3), as far as gzip goes.
enum AcceptEncoding {
    /// Whether a response may be gzipped for these `Accept-Encoding` values: `gzip` (or `x-gzip`) or `*`
    /// listed with a non-zero weight, an explicit `gzip;q=0` winning over `*`.
    static func allowsGzip(_ values: [String]) -> Bool {
        var gzip: Bool?
        var any: Bool?
        for value in values {
            for entry in value.split(separator: ",") {
                let parts = entry.split(separator: ";")
                guard let name = parts.first?.trimmingCharacters(in: .whitespaces).lowercased() else { continue }
                let accepted = weight(parts.dropFirst()) > 0
                switch name {
                case "gzip", "x-gzip": gzip = accepted
                case "*": any = accepted
                default: break
                }
            }
        }
        return gzip ?? any ?? false
    }

    /// The `q` parameter's value (1 when absent or unreadable, as a lenient reader takes it).
    private static func weight(_ parameters: ArraySlice<Substring>) -> Double {
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" else { continue }
            return Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 1
        }
        return 1
    }
}
