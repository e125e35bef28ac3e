extension SyncQuery {
    /// A live query: emits the current result, then the new result after every committed change to the table.
    ///
    /// Changes are signalled by the context after each local write commits, and after each pulled page,
    /// push result, resolution and purge that changes the table. Bursts are coalesced: a slow consumer gets
    /// the latest result, not one result per write. The stream ends with an error if a read fails, and ends
    /// when the context closes or the consuming task is cancelled.
    ///
    /// ```swift
    /// for try await open in todos.query().filter(Column("complete") == false).observe() {
    ///     render(open)
    /// }
    /// ```
    public func observe() -> AsyncThrowingStream<[Item], any Error> {
        // Subscribe before the first read so no change between the read and the subscription is missed.
        let changes = table.context.changeNotifier.changes(of: table.name)
        let query = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try await query.fetchAll())
                    for await _ in changes {
                        try Task.checkCancellation()
                        continuation.yield(try await query.fetchAll())
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
