extension SyncServer {
    /// Runs `body`, then stops the server, also when `body` throws (then `body`'s error is the one thrown).
    ///
    /// ```swift
    /// let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory))
    /// try await server.start()
    /// try await server.stopping { try await runTests(against: server.url!) }
    /// ```
    public func stopping<Result>(after body: () async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body()
        } catch {
            try? await stop()
            throw error
        }
        try await stop()
        return result
    }
}
