import Foundation
import Logging

/// The work of one engine cycle: push the whole queue with the engine's failure policy, then pull the
/// definitions due, classifying each failure.
///
/// A cycle changes no engine state: it says which step it is at and returns how it ended; the engine decides
/// what follows (backoff, breaker, blocked on credentials, which definitions are due again).
struct SyncCycle: Sendable {
    let context: SyncContext
    let definitions: [SyncDefinition]
    /// Retries and dead letters for the push (built for this cycle: its `now` is the cycle's start).
    let failurePolicy: EngineFailurePolicy
    let metrics: SyncEngineMetrics
    let logger: Logger
    let clock: any SyncClock

    /// Where a cycle is.
    enum Step: Sendable {
        case pushing
        /// The push ended (whatever its outcome): the queue's counts changed.
        case pushed
        case pulling(table: String)
    }

    /// How a cycle ended.
    enum Ending: Sendable, Equatable {
        /// Everything ran; failed pulls of a permanent kind are in the report.
        case completed
        /// Cancelled between two steps; the definitions at `retry` were not pulled.
        case cancelled(retry: [Int])
        /// A transient failure (network, server) stopped it; the definitions at `retry` were not pulled.
        case failed(reason: String, retryAfter: Duration?, retry: [Int])
        /// The server answered 401.
        case blockedOnCredentials
    }

    /// What the cycle did and how it ended.
    struct Outcome: Sendable {
        var report: SyncCycleReport
        var ending: Ending
        /// When a push that reached the server ended, if one did.
        var pushSucceededAt: Date?
        /// The definitions pulled, with the time each ended.
        var pulled: [(index: Int, at: Date)] = []
    }

    /// Runs the cycle: the push, then the definitions at `toPull` in order.
    func run(
        _ report: SyncCycleReport, toPull: [Int], onStep: @Sendable (Step) async -> Void
    ) async -> Outcome {
        var outcome = Outcome(report: report, ending: .completed)
        await onStep(.pushing)
        defer {
            metrics.pushed.increment(by: outcome.report.pushedOperations)
            metrics.failed.increment(by: outcome.report.failedOperations)
        }
        if let ending = await push(into: &outcome) {
            await onStep(.pushed)
            outcome.ending = ending.retrying(toPull)
            return outcome
        }
        await onStep(.pushed)

        for (position, index) in toPull.enumerated() {
            let definition = definitions[index]
            if Task.isCancelled {
                outcome.ending = .cancelled(retry: Array(toPull[position...]))
                return outcome
            }
            await onStep(.pulling(table: definition.table))
            var options = definition.pullOptions
            options.pushesFirst = false
            do {
                let summary = try await SyncEngineMetrics.measure(metrics.pullDuration) {
                    try await context.pull(
                        table: definition.table, query: definition.query, queryId: definition.queryId,
                        options: options, logger: logger)
                }
                outcome.report.pulls.append((definition.table, summary))
                outcome.pulled.append((index, clock.now()))
                metrics.rowsPulled.increment(by: summary.received)
                logger.debug("pulled", metadata: ["table": "\(definition.table)", "received": "\(summary.received)"])
            } catch {
                switch Self.classify(error) {
                case .authentication:
                    outcome.ending = .blockedOnCredentials
                    return outcome
                case .transient:
                    outcome.ending = .failed(
                        reason: "pull of \(definition.table): \(error)", retryAfter: Self.retryAfter(of: error),
                        retry: Array(toPull[position...]))
                    return outcome
                case .permanent, .conflict:
                    outcome.report.failedPulls.append((definition.table, "\(error)"))
                    logger.warning("pull failed", metadata: ["table": "\(definition.table)", "error": "\(error)"])
                }
            }
        }
        return outcome
    }

    /// Pushes the queue; returns how the cycle ends when the push ends it (its `retry` lists still empty).
    private func push(into outcome: inout Outcome) async -> Ending? {
        do {
            let summary = try await SyncEngineMetrics.measure(metrics.pushDuration) {
                let push = try context.makePush(failurePolicy: failurePolicy)
                return try await context.perform { try await push.run() }
            }
            outcome.report.pushedOperations = summary.pushedOperations
            outcome.pushSucceededAt = clock.now()
            return nil
        } catch SyncError.pushFailed(let failure) {
            outcome.report.pushedOperations = failure.summary.pushedOperations
            outcome.report.failedOperations = failure.errors.count
            if failure.status == .completedWithErrors { outcome.pushSucceededAt = clock.now() }
            for error in failure.errors {
                logger.debug(
                    "operation failed",
                    metadata: ["operation": "\(error.operationId)", "status": "\(error.status ?? 0)"])
            }
            switch failure.status {
            case .succeeded, .completedWithErrors:
                return nil  // each failed operation waits for its own retry time or is dead
            case .abortedAuthentication:
                return .blockedOnCredentials
            case .cancelled:
                return .cancelled(retry: [])
            case .abortedNetwork, .abortedStore, .abortedByHandler:
                return .failed(reason: failure.description, retryAfter: nil, retry: [])
            }
        } catch {
            return .failed(reason: "\(error)", retryAfter: Self.retryAfter(of: error), retry: [])
        }
    }

    /// The server's `Retry-After` in a failed request's error, if it sent one.
    static func retryAfter(of error: any Error) -> Duration? {
        switch error {
        case let error as HTTPStatusError, SyncError.server(let error): error.retryAfter
        default: nil
        }
    }

    /// What a failed pull or probe means.
    static func classify(_ error: any Error) -> FailureClass {
        switch error {
        case let error as HTTPStatusError, SyncError.server(let error): FailureClass(status: error.status)
        case SyncError.pushFailed(let failure) where failure.status == .abortedAuthentication: .authentication
        case SyncError.network, SyncError.remote, SyncError.pushFailed: .transient
        case is SyncError: .permanent
        default: .transient  // transport errors, timeouts, unreadable responses
        }
    }
}

extension SyncCycle.Ending {
    /// The same ending with `definitions` still to pull.
    fileprivate func retrying(_ definitions: [Int]) -> Self {
        switch self {
        case .cancelled: .cancelled(retry: definitions)
        case .failed(let reason, let retryAfter, _): .failed(reason: reason, retryAfter: retryAfter, retry: definitions)
        case .completed, .blockedOnCredentials: self
        }
    }
}
