/// Reads bytes held in memory.
final class MemoryBodyReader: UploadBodyReader {
    private let bytes: [UInt8]
    private var position: Int

    init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = Swift.min(position, bytes.count)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = Swift.min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<position + count]))
        }
        position += count
        return count
    }
}
