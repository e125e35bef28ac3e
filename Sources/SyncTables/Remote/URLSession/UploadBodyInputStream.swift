import Foundation

/// An `InputStream` that pulls its bytes from an ``UploadBodySource`` when URLSession reads it, so a
/// ``URLSessionTransport`` upload holds at most one chunk of the body in memory.
///
/// URLSession reads it from one thread at a time; the status it reports is only touched by those reads. A reader failure ends the stream with an error (`read` returns -1) and calls
/// `onFailure`, which cancels the task: FoundationNetworking does not always fail a task whose stream failed.
final class UploadBodyInputStream: InputStream {
    private let source: UploadBodySource
    private let onFailure: @Sendable () -> Void
    private var status: Stream.Status = .notOpen
    private var delivered: Int64 = 0

    init(source: UploadBodySource, onFailure: @escaping @Sendable () -> Void) {
        self.source = source
        self.onFailure = onFailure
        super.init(data: Data())
    }

    override var streamStatus: Stream.Status { status }

    override var streamError: (any Error)? { source.failure }

    override var hasBytesAvailable: Bool { status == .open && delivered < source.length }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        status = .closed
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        guard let count = source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length)) else {
            status = .error
            onFailure()
            return -1
        }
        delivered += Int64(count)
        if delivered >= source.length { status = .atEnd }
        return count
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }
}
