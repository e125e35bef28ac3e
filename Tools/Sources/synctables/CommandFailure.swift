@_spi(SyncTablesTools) import SyncTables

/// A failure the command reports as one line on stderr and an ``ExitStatus``.
struct CommandFailure: Error, Sendable {
    /// The exit code.
    var status: ExitStatus
    /// The one-line message.
    var message: String
    /// Set when the command already wrote its JSON result, so no separate error object is written.
    var reportedAsJSON = false

    init(_ status: ExitStatus, _ message: String, reportedAsJSON: Bool = false) {
        self.status = status
        // Messages are built from library messages that end with a period; say each period once.
        self.message = message.withoutDoubledPeriods
        self.reportedAsJSON = reportedAsJSON
    }

    /// Classifies any error the library throws into an exit code and a message.
    init(classifying error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case SyncError.pushFailed(let failure):
            self.init(Self.status(of: failure.status), failure.description)
        case let error as SyncError:
            self.init(syncError: error)
        case let error as StoreError:
            self.init(storeError: error)
        case let error as ODataError:
            self.init(.usage, "invalid filter: \(error)")
        default:
            self.init(.failure, String(describing: error))
        }
    }

    private init(syncError error: SyncError) {
        switch error {
        case .store(let storeError):
            self.init(storeError: storeError)
        case .network:
            self.init(.network, error.description)
        case .server(let httpError) where httpError.isUnauthorized:
            self.init(.authentication, "the server refused the credentials (HTTP 401); check --auth-token")
        case .pendingOperations:
            self.init(.purgeRefused, error.description)
        case .corruptSystemTable, .unsupportedSchemaVersion:
            self.init(.storeCorrupt, error.description)
        case .invalidTableName, .invalidQuery, .invalidItemID, .unknownColumn:
            self.init(.usage, error.description)
        case .pushInProgress:
            self.init(.pushInProgress, error.description)
        case .operationNotFound:
            self.init(.operationNotFound, error.description)
        default:
            self.init(.failure, error.description)
        }
    }

    private init(storeError error: StoreError) {
        switch error {
        case .busy:
            self.init(
                .storeLocked,
                "the store is locked by another process beyond the busy timeout; retry later or raise --busy-timeout")
        case .corrupt(let message):
            self.init(
                .storeCorrupt, "the store is not a database or is damaged (\(message)); if it is encrypted, pass --key")
        case .cannotOpen(let path, let message):
            self.init(.storeNotFound, "cannot open the store at \(path): \(message)")
        case .readOnly(let message):
            self.init(.failure, "the store cannot be written: \(message)")
        case .full(let message):
            self.init(.failure, "the disk or the store is full: \(message)")
        case .unknownTable(let table):
            self.init(.usage, "no table '\(table)' in the store")
        case .invalidTableName(let table):
            self.init(.usage, "invalid table name '\(table)'")
        case .invalidQuery(let message):
            self.init(.usage, "invalid query: \(message)")
        case .database(let code, let message, _):
            self.init(.failure, "the store failed (SQLite error \(code)): \(message)")
        case .invalidStoredData(let table, let id, let message):
            self.init(.storeCorrupt, "damaged row \(id ?? "?") in table '\(table)': \(message)")
        case .truncated:
            self.init(.storeCorrupt, error.description)
        case .wrongKey:
            self.init(
                .wrongKey, "the key does not open the encrypted store (or the file is damaged); nothing was written")
        case .keyRequired:
            self.init(.wrongKey, "the store is encrypted: give its key with --key, --key-file or SYNCTABLES_KEY")
        case .notEncrypted:
            self.init(.wrongKey, "a key was given, but the store is not encrypted: omit --key")
        case .invalidKey(let reason):
            self.init(.usage, "the key cannot be used: \(reason)")
        case .missingID, .closed, .transactionFinished, .migrationVerificationFailed:
            self.init(.failure, "the store failed: \(error)")
        }
    }

    /// The exit code of a push that ended early or with errors.
    static func status(of pushStatus: PushOutcome) -> ExitStatus {
        switch pushStatus {
        case .succeeded: .success
        case .completedWithErrors: .pushErrors
        case .abortedNetwork: .network
        case .abortedAuthentication: .authentication
        case .abortedStore, .cancelled, .abortedByHandler: .failure
        }
    }
}
