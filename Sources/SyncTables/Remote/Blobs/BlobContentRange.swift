/// A `Content-Range` header of a blob answer: `bytes <start>-<end>/<size>` (206) or `bytes */<size>` (416).
struct BlobContentRange: Hashable {
    /// The first byte sent, or `nil` for the unsatisfied form.
    var start: Int64?
    /// The blob's whole size.
    var size: Int64

    init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes ") else { return nil }
        let parts = trimmed.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let size = Int64(parts[1]), size >= 0 else { return nil }
        self.size = size
        if parts[0] == "*" {
            start = nil
        } else {
            let bounds = parts[0].split(separator: "-", maxSplits: 1)
            guard bounds.count == 2, let start = Int64(bounds[0]), Int64(bounds[1]) != nil else { return nil }
            self.start = start
        }
    }
}
