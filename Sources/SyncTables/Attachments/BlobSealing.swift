import Crypto
import Foundation

/// How an encrypted store's blob files are sealed: AES-256-GCM (swift-crypto) over chunks of 64 KiB, with a
/// key of the blob's own that lives only in the encrypted store, so removing the blob's record (a wipe, a
/// purge, a collection) leaves its file unreadable.
///
/// A sealed file is the chunks in order, each its ciphertext followed by its 16-byte tag. A chunk's nonce is
/// its index (a key seals one file only, so an index never repeats under a key), and its additional data says
/// whether it is the last chunk, so a file cut at a chunk boundary fails to open instead of reading as a
/// shorter blob. Every chunk but the last holds exactly ``chunkSize`` bytes; an empty blob is one empty chunk.
struct BlobSealing: Sendable {
    /// Plain bytes per chunk.
    static let chunkSize = 64 * 1024
    /// Bytes of a chunk's tag.
    static let tagSize = 16
    /// Bytes of a full chunk on disk.
    static let sealedChunkSize = chunkSize + tagSize

    let key: SymmetricKey

    /// A new random key.
    static func random() -> BlobSealing {
        BlobSealing(key: SymmetricKey(size: .bits256))
    }

    /// The sealing whose key `text` spells (``keyText``); `nil` when it spells none.
    init?(keyText: String) {
        guard let data = Data(base64Encoded: keyText), data.count == 32 else { return nil }
        key = SymmetricKey(data: data)
    }

    private init(key: SymmetricKey) {
        self.key = key
    }

    /// The key as base64 text, as the blob's record keeps it.
    var keyText: String {
        key.withUnsafeBytes { Data($0).base64EncodedString() }
    }

    /// The sealed form of chunk `index`.
    func seal(_ plain: some DataProtocol, index: UInt64, isLast: Bool) throws -> Data {
        let box = try AES.GCM.seal(
            plain, using: key, nonce: try Self.nonce(index), authenticating: Self.additionalData(isLast: isLast))
        return box.ciphertext + box.tag
    }

    /// The plain bytes of sealed chunk `index`; throws when it was damaged, cut or moved.
    func open(_ sealed: Data, index: UInt64, isLast: Bool) throws -> Data {
        guard sealed.count >= Self.tagSize else { throw CryptoKitError.authenticationFailure }
        let box = try AES.GCM.SealedBox(
            nonce: try Self.nonce(index), ciphertext: sealed.dropLast(Self.tagSize), tag: sealed.suffix(Self.tagSize))
        return try AES.GCM.open(box, using: key, authenticating: Self.additionalData(isLast: isLast))
    }

    /// The number of chunks a blob of `size` plain bytes has.
    static func chunkCount(size: Int64) -> Int64 {
        max(1, (size + Int64(chunkSize) - 1) / Int64(chunkSize))
    }

    /// The size on disk of a sealed blob of `size` plain bytes.
    static func sealedSize(of size: Int64) -> Int64 {
        size + chunkCount(size: size) * Int64(tagSize)
    }

    private static func nonce(_ index: UInt64) throws -> AES.GCM.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: index.bigEndian) { bytes.replaceSubrange(4..<12, with: $0) }
        return try AES.GCM.Nonce(data: bytes)
    }

    private static func additionalData(isLast: Bool) -> Data {
        Data([isLast ? 1 : 0])
    }
}
