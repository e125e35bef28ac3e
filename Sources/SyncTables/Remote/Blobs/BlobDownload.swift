/// A blob as it downloads: its size, where the body starts, and the body's chunks as they arrive.
///
/// ```swift
/// let download = try await client.downloadBlob(sha256: hash, from: bytesOnDisk)
/// if download.startOffset == 0 { try truncateFile() }  // the server sent the whole blob
/// for try await chunk in download.body { try append(chunk) }
/// ```
@_spi(SyncTablesTools) public struct BlobDownload: Sendable {
    /// The blob's size in bytes.
    @_spi(SyncTablesTools) public var totalSize: Int64
    /// Where in the blob ``body`` starts: the offset asked for, or 0 when the server sent the whole blob.
    @_spi(SyncTablesTools) public var startOffset: Int64
    /// The bytes from ``startOffset`` to the end, chunk by chunk (empty when nothing was left to download).
    @_spi(SyncTablesTools) public var body: StreamingResponse.Body

    /// Creates a download.
    @_spi(SyncTablesTools) public init(totalSize: Int64, startOffset: Int64, body: StreamingResponse.Body) {
        self.totalSize = totalSize
        self.startOffset = startOffset
        self.body = body
    }

    /// `true` when nothing was left to download (the offset asked for was the blob's size).
    @_spi(SyncTablesTools) public var isFinished: Bool { startOffset == totalSize }
}
