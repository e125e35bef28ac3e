/// How a push sends its operations.
///
/// Over a link with real latency every request costs a round trip, so a push uses as few as it can:
///
/// - **Batches** (``batchSize``): when the server offers batched writes (its capabilities document says
///   so; `sync-server` does), a push sends consecutive operations in one request, as many as the server
///   takes unless ``batchSize`` is lower, applied by the server in queue order, each exactly as its own
///   request would be. Servers that do not offer batches, or answer a batch with 404 or 405, get one
///   request per operation instead, in queue order. `batchSize: 1` always sends one request per operation.
///   A ``PushHandler`` sees and sends each operation itself, so a context with a handler never batches.
/// - **Concurrent requests** (``maxConcurrentRequests``): for operations sent one request each.
///
/// Every guarantee of ``SyncContext/push(options:)`` holds per operation either way: a failed operation
/// records its error and the push goes on, conflicts go through the ``ConflictPolicy``, an operation whose
/// answer was lost is recognised when it is sent again, and a kill at any moment loses or duplicates
/// nothing.
///
/// ```swift
/// try await context.push()  // batches when the server offers them
/// try await context.push(options: PushOptions(batchSize: 1, maxConcurrentRequests: 8))
/// ```
public struct PushOptions: Sendable, Hashable {
    /// The most operations sent in one batch request when the server offers batches; `nil` (the default)
    /// takes as many as the server allows, `1` sends one request per operation whatever the server offers.
    /// The server's own limits (operations and body bytes) always apply.
    public var batchSize: Int?
    /// The most requests on the wire at once when operations are sent one per request; `1` (the default)
    /// sends them strictly in queue order.
    ///
    /// Above `1`, operations of different items may reach the server and complete in any order, while the
    /// operations of one item never overlap and keep their queue order (an item has one queued operation
    /// at a time, and a later one is only taken from the queue after the earlier one completed).
    public var maxConcurrentRequests: Int

    /// Creates push options.
    public init(batchSize: Int? = nil, maxConcurrentRequests: Int = 1) {
        self.batchSize = batchSize
        self.maxConcurrentRequests = maxConcurrentRequests
    }

    /// Throws ``SyncError/invalidPushOptions(_:)`` for values a push cannot run with.
    func validate() throws(SyncError) {
        if let batchSize, batchSize < 1 {
            throw .invalidPushOptions("batchSize must be at least 1, not \(batchSize)")
        }
        guard maxConcurrentRequests >= 1 else {
            throw .invalidPushOptions("maxConcurrentRequests must be at least 1, not \(maxConcurrentRequests)")
        }
    }
}
