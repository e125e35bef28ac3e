import ArgumentParser

/// The documented exit codes of `synctables`: scripts branch on them, so existing values never change.
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    case failure = 1
    case pushErrors = 2
    case network = 3
    case authentication = 4
    case purgeRefused = 5
    case storeNotFound = 6
    case storeCorrupt = 7
    case storeLocked = 8
    case wrongKey = 9
    case encryptionUnavailable = 10
    case pushInProgress = 11
    case errorNotFound = 12
    case operationNotFound = 13
    case usage = 64

    /// A stable name for `--json` error output.
    var name: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .pushErrors: "pushErrors"
        case .network: "network"
        case .authentication: "authentication"
        case .purgeRefused: "purgeRefused"
        case .storeNotFound: "storeNotFound"
        case .storeCorrupt: "storeCorrupt"
        case .storeLocked: "storeLocked"
        case .wrongKey: "wrongKey"
        case .encryptionUnavailable: "encryptionUnavailable"
        case .pushInProgress: "pushInProgress"
        case .errorNotFound: "errorNotFound"
        case .operationNotFound: "operationNotFound"
        case .usage: "usage"
        }
    }

    /// What the code means, as `--help` and the README list it.
    var meaning: String {
        switch self {
        case .success: "success"
        case .failure: "any other failure (the server refused a request, an unexpected store error)"
        case .pushErrors: "push completed, but some operations failed (conflicts or errors stay queued)"
        case .network: "aborted: the server could not be reached or the connection broke"
        case .authentication: "aborted: the server answered 401 Unauthorized"
        case .purgeRefused: "purge refused: a table has pending operations (push first, or --force)"
        case .storeNotFound: "the store file does not exist"
        case .storeCorrupt: "the store is not a database, is damaged or cut short, or was written by a newer SyncTables"
        case .storeLocked: "the store stayed locked by another process beyond the busy timeout"
        case .wrongKey:
            "wrong key: the key does not open the store, the store is encrypted and no key was given, or it is not encrypted"
        case .encryptionUnavailable: "a key was given, but this synctables was built without the SQLCipher trait"
        case .pushInProgress:
            "push or wipe refused: another process is pushing the same store (nothing was sent or removed)"
        case .errorNotFound: "no push error has the given id (it was resolved, or its operation changed or was pushed)"
        case .operationNotFound:
            "no operation has the given id (it was pushed, retried, discarded or reverted); nothing changed"
        case .usage:
            "bad usage: unknown option, invalid value or filter, a misspelled table or column name, a wipe without --yes"
        }
    }

    /// The table printed at the end of `synctables --help`.
    static var helpTable: String {
        "EXIT CODES:\n"
            + allCases.map {
                "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0)) \($0.meaning)"
            }
            .joined(separator: "\n")
    }
}
