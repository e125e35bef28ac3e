import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The stores every context test runs on: the in-memory store and a real SQLite file.
enum ContextStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case sqlite

    var testDescription: String { rawValue }

    /// A fresh, empty store (SQLite in its own temporary file, with the default durable configuration).
    func makeStore(synchronous: SQLiteStore.Configuration.Synchronous = .full) throws -> any LocalStore {
        switch self {
        case .memory: MemoryStore()
        case .sqlite:
            try SQLiteStore(
                path: ContextTemporaryFile.make().path,
                configuration: SQLiteStore.Configuration(synchronous: synchronous)
            )
        }
    }

    /// A fresh context on a fresh store.
    func makeContext(
        synchronous: SQLiteStore.Configuration.Synchronous = .full,
        configuration: SyncContext.Configuration = SyncContext.Configuration()
    ) async throws -> SyncContext {
        try await SyncContext(store: makeStore(synchronous: synchronous), configuration: configuration)
    }
}

/// Unique temporary paths for file-backed stores; files live in the system temporary directory.
enum ContextTemporaryFile {
    static func make() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("synctables-context-\(UUID().uuidString).sqlite")
    }
}
