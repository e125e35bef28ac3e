import SyncTables

/// One named behaviour every `LocalStore` must have, runnable from any test framework.
///
/// A check receives a factory and asks it for as many fresh, empty stores as it needs.
///
/// ```swift
/// @Test(arguments: StoreConformanceSuite.checks)
/// func myStoreConforms(_ check: StoreConformanceCheck) async throws {
///     try await check.run { MyStore() }
/// }
/// ```
public struct StoreConformanceCheck: Sendable, CustomStringConvertible {
    /// A short name saying the behaviour, used as the test case label.
    public let name: String
    /// Runs the check; throws ``ConformanceFailure`` (or the store's own error) when the store misbehaves.
    public let run: @Sendable (_ makeStore: @Sendable () async throws -> any LocalStore) async throws -> Void

    /// Creates a check.
    public init(
        name: String,
        run: @escaping @Sendable (_ makeStore: @Sendable () async throws -> any LocalStore) async throws -> Void
    ) {
        self.name = name
        self.run = run
    }

    /// The check's name.
    public var description: String { name }
}

/// A store did not behave as the conformance suite requires.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// What was expected and what happened.
    public let message: String
    /// The suite source location that detected the failure.
    public let location: String

    /// Creates a failure.
    public init(_ message: String, file: StaticString = #fileID, line: UInt = #line) {
        self.message = message
        self.location = "\(file):\(line)"
    }

    /// The message and where it was detected.
    public var description: String { "\(message) [\(location)]" }
}
