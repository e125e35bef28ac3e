/// The name of a blob: the SHA-256 of its bytes, as 64 lowercase hexadecimal digits.
///
/// Blobs are content-addressed: the same bytes always have the same name, so a blob is stored (and sent) once
/// however many rows reference it.
struct BlobHash: Hashable, Sendable, CustomStringConvertible {
    /// The 64 lowercase hexadecimal digits.
    let hex: String

    /// The hash named by `text`; `nil` unless it is exactly 64 lowercase hexadecimal digits.
    init?(_ text: some StringProtocol) {
        let utf8 = text.utf8
        guard utf8.count == 64, utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        hex = String(text)
    }

    /// The hash of a digest's bytes.
    init(digest: some Sequence<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        hex = String(decoding: text, as: UTF8.self)
    }

    var description: String { hex }
}
