import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Runs a push (or a pull that pushes first) that must fail with ``SyncError/pushFailed(_:)``, and returns
/// how it failed. Any other outcome fails the test.
func requirePushFailure<Result>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Result
) async throws -> PushFailure {
    let error = try await #require(throws: SyncError.self, sourceLocation: sourceLocation) { try await body() }
    guard case .pushFailed(let failure) = error else {
        Issue.record("expected SyncError.pushFailed, got \(error)", sourceLocation: sourceLocation)
        throw error
    }
    return failure
}
