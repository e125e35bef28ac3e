import Foundation
@_spi(SyncTablesTools) import SyncTables

#if SQLCipher
    import SyncTablesSQLCipher
#endif

/// An open store and its context for the length of one command.
struct StoreSession {
    let context: SyncContext
    let path: String

    /// Opens the store named by the options; never creates one, so a typo cannot leave an empty store behind.
    static func open(
        _ options: StoreOptions, client: SyncClient? = nil,
        configuration contextConfiguration: SyncContext.Configuration = SyncContext.Configuration()
    ) async throws -> StoreSession {
        let key = try options.resolvedKey()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.store, isDirectory: &isDirectory) else {
            throw CommandFailure(.storeNotFound, "no store at \(options.store)")
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure(.storeNotFound, "\(options.store) is a directory, not a store file")
        }
        let configuration = SQLiteStore.Configuration(busyTimeoutMilliseconds: options.busyTimeout)
        let store = try openStore(path: options.store, key: key, configuration: configuration)
        do {
            let context = try await SyncContext(store: store, client: client, configuration: contextConfiguration)
            return StoreSession(context: context, path: options.store)
        } catch {
            try? await store.close()
            throw error
        }
    }

    #if SQLCipher
        private static func openStore(
            path: String, key: String?, configuration: SQLiteStore.Configuration
        ) throws -> any LocalStore {
            guard let key else { return try SQLiteStore(path: path, configuration: configuration) }
            return try EncryptedSQLiteStore(path: path, key: key, configuration: configuration)
        }
    #else
        private static func openStore(
            path: String, key: String?, configuration: SQLiteStore.Configuration
        ) throws -> any LocalStore {
            if key != nil {
                throw CommandFailure(
                    .encryptionUnavailable,
                    "this synctables was built without the SQLCipher trait and cannot open encrypted stores; "
                        + "rebuild it with `swift build --traits SQLCipher`")
            }
            return try SQLiteStore(path: path, configuration: configuration)
        }
    #endif

    /// Closes the store, reporting nothing: the command's own outcome is what matters.
    func close() async {
        try? await context.close()
    }

    /// Runs `body` on the opened store and closes it afterwards, whatever happens.
    static func with<Result>(
        _ options: StoreOptions,
        client: SyncClient? = nil,
        configuration: SyncContext.Configuration = SyncContext.Configuration(),
        _ body: (StoreSession) async throws -> Result
    ) async throws -> Result {
        let session = try await open(options, client: client, configuration: configuration)
        do {
            let result = try await body(session)
            await session.close()
            return result
        } catch {
            await session.close()
            throw error
        }
    }
}
