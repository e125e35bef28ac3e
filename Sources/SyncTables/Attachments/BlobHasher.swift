import Crypto
import Foundation

/// SHA-256 of bytes fed in chunks, spelled as attachments name blobs: 64 lowercase hexadecimal digits.
struct BlobHasher {
    private var hasher = SHA256()

    mutating func update(_ bytes: some DataProtocol) {
        for region in bytes.regions { region.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
    }

    /// The hash of everything fed so far (the hasher is then done).
    var hex: String {
        hasher.finalize().map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }
}
