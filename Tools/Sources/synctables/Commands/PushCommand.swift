import ArgumentParser
import Foundation
@_spi(SyncTablesTools) import SyncTables

/// `synctables push`: pushes the whole queue.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Push every pending operation to the server, in queue order.",
        discussion: "Exits 0 when everything was pushed, 2 when the push completed with errors (see "
            + "`synctables errors`), 3 when the server could not be reached, 4 on HTTP 401."
    )

    @OptionGroup var options: StoreOptions
    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await reportingFailures(options) {
            let client = try ServerConnection.client(server)
            let output = Output(options)
            try await StoreSession.with(options, client: client) { session in
                let progress = output.showsProgress ? PushProgress(events: session.context.events) : nil
                let pendingBefore = try await session.context.pendingOperationCount()
                do {
                    let summary = try await session.context.push()
                    progress?.finish()
                    output.emit(
                        Self.json(
                            status: .succeeded, pushed: summary.pushedOperations,
                            resolved: summary.resolvedConflicts, errors: [], reason: nil),
                        text: "pushed \(summary.pushedOperations) operation(s)"
                            + (summary.resolvedConflicts > 0
                                ? ", \(summary.resolvedConflicts) conflict(s) resolved" : ""))
                } catch SyncError.pushFailed(let failure) {
                    progress?.finish()
                    // Confirmed operations leave the queue; failed and unsent ones stay.
                    let pushed = pendingBefore - (try await session.context.pendingOperationCount())
                    output.emit(
                        Self.json(
                            status: failure.status, pushed: pushed, resolved: 0, errors: failure.errors,
                            reason: failure.reason),
                        text: failure.errors.isEmpty ? "" : ErrorsCommand.text(failure.errors))
                    throw CommandFailure(
                        CommandFailure.status(of: failure.status), Self.message(failure),
                        reportedAsJSON: options.json)
                }
            }
        }
    }

    private static func message(_ failure: PushFailure) -> String {
        switch failure.status {
        case .completedWithErrors:
            "push completed with \(failure.errors.count) failed operation(s); see `synctables errors list`"
        case .abortedNetwork:
            "push aborted: the server could not be reached (\(failure.reason ?? "network error")); nothing was lost"
        case .abortedAuthentication:
            "push aborted: the server answered 401 Unauthorized; check --auth-token"
        default:
            "push aborted (\(failure.status.rawValue))" + (failure.reason.map { ": \($0)" } ?? "")
        }
    }

    static func json(
        status: PushOutcome, pushed: Int, resolved: Int, errors: [TableOperationError], reason: String?
    ) -> JSONObject {
        [
            "status": .string(status.rawValue),
            "pushedOperations": .count(pushed),
            "resolvedConflicts": .count(resolved),
            "failedOperations": .count(errors.count),
            "errors": .array(errors.map { .object(ErrorsCommand.json($0)) }),
            "reason": .optional(reason),
        ]
    }
}

/// Draws "pushing: N/M, F failed" on stderr while a push runs on a terminal.
final class PushProgress: Sendable {
    private let task: Task<Void, Never>

    init(events: AsyncStream<SyncEvent>) {
        task = Task {
            var (total, done, failed) = (0, 0, 0)
            for await event in events {
                switch event {
                case .pushStarted(let pending): total = pending
                case .operationPushed: done += 1
                case .operationFailed:
                    done += 1
                    failed += 1
                case .pushFinished: return
                default: continue
                }
                FileHandle.standardError.write(Data("\rpushing: \(done)/\(total), \(failed) failed".utf8))
            }
        }
    }

    /// Stops drawing and clears the line, so the result starts on a clean one.
    func finish() {
        task.cancel()
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
