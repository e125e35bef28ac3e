/// A synchronous pull reader of an ``UploadBody``: the transport calls ``read(into:)`` on its own thread, one
/// call at a time, until the body's length was read.
///
/// Throwing aborts the transfer; the transport rethrows the error to the caller of
/// ``UploadingHTTPTransport/upload(_:body:progress:)``.
///
/// ```swift
/// final class ZeroReader: UploadBodyReader {
///     func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
///         buffer.initializeMemory(as: UInt8.self, repeating: 0)
///         return buffer.count
///     }
/// }
/// ```
public protocol UploadBodyReader: AnyObject {
    /// Fills the start of `buffer` with the next bytes and returns how many it wrote; 0 only at the end.
    ///
    /// - Throws: Any error, which aborts the transfer.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}
