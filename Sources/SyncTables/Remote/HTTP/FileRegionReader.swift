import Foundation

/// Reads a region of a file through a `FileHandle`, never more than the caller's buffer at a time.
final class FileRegionReader: UploadBodyReader {
    private let handle: FileHandle
    private var position: Int64
    private let end: Int64

    init(url: URL, from start: Int64, to end: Int64) throws {
        handle = try FileHandle(forReadingFrom: url)
        try handle.seek(toOffset: UInt64(start))
        position = start
        self.end = end
    }

    deinit {
        try? handle.close()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = Int(Swift.min(Int64(buffer.count), end - position))
        guard wanted > 0 else { return 0 }
        guard let data = try handle.read(upToCount: wanted), !data.isEmpty else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "The file ended early."])
        }
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: data.count)
        position += Int64(data.count)
        return data.count
    }
}
