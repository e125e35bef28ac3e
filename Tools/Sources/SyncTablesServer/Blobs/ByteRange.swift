/// The one byte range a `Range: bytes=…` header asks for (RFC 9110 §14.1.2).
///
/// Only a single range is served; a header naming several, or in another unit, is ignored and the whole
/// blob is sent, as the RFC allows.
enum ByteRange: Equatable, Sendable {
    /// `bytes=first-last` or `bytes=first-`: from `first` to `last` (or the end), inclusive.
    case from(Int64, through: Int64?)
    /// `bytes=-count`: the last `count` bytes.
    case suffix(Int64)

    /// The range a header value asks for; `nil` when it asks for none this server serves (the whole blob goes).
    init?(header: String) {
        let value = header.trimmingWhitespace
        guard value.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = value.dropFirst("bytes=".count).trimmingWhitespace
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingWhitespace
        let last = spec[spec.index(after: dash)...].trimmingWhitespace
        if first.isEmpty {
            guard let count = Int64(last), count >= 0 else { return nil }
            self = .suffix(count)
        } else {
            guard let start = Int64(first), start >= 0 else { return nil }
            if last.isEmpty {
                self = .from(start, through: nil)
            } else {
                guard let end = Int64(last), end >= start else { return nil }
                self = .from(start, through: end)
            }
        }
    }

    /// The bytes this range selects in a blob of `size` bytes; `nil` when it selects none (416).
    func resolved(size: Int64) -> ClosedRange<Int64>? {
        switch self {
        case .from(let start, let end):
            guard start < size else { return nil }
            return start...min(end ?? (size - 1), size - 1)
        case .suffix(let count):
            guard count > 0, size > 0 else { return nil }
            return max(0, size - count)...(size - 1)
        }
    }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: Substring {
        let text = Substring(self)
        guard let start = text.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let end = text.lastIndex(where: { $0 != " " && $0 != "\t" }) ?? start
        return text[start...end]
    }
}
