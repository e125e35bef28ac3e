import CoreMetrics
import Foundation
import Logging

/// Sync that handles its own failures: one call syncs everything, transient failures are retried with
/// persisted backoff, operations that cannot succeed are dead-lettered instead of blocking the queue, and a
/// circuit breaker keeps a failing server from being hammered.
///
/// ```swift
/// let engine = SyncEngine(context: context, definitions: [
///     SyncDefinition(todos, queryId: "all-todos",
///                    schedule: SyncSchedule(interval: .seconds(300), triggers: [.appStart, .networkReconnect])),
///     SyncDefinition(notes, query: notes.query().filter(Column("archived") == false), queryId: "notes"),
/// ], networkMonitor: try SystemNetworkMonitor())
/// await engine.start()                           // syncs by itself from now on
/// let report = await engine.syncNow(reason: "pull to refresh")
/// for await state in engine.states { print(state) }
/// ```
///
/// A cycle pushes the whole queue, then pulls definitions: every one for an explicit ``syncNow(reason:)``,
/// the due ones (``SyncSchedule``) for a cycle the engine starts by itself. Concurrent cycles share one.
/// The engine classifies every failure:
///
/// - **Transient** (no response, timeouts, 408, 429, 500, 502, 503, 504): an operation waits
///   `RetryPolicy` backoff with full jitter (or the server's `Retry-After`) before it is sent again, and
///   after ``RetryPolicy/maxAttempts`` failures it is dead-lettered; a failed cycle backs off the same way,
///   and ``SyncEngineConfiguration/breakerThreshold`` failed cycles in a row open the circuit breaker.
///   Each operation's failures and next attempt time are stored with the queue, so a restart waits out the
///   rest of a backoff; so is the cycle backoff.
/// - **Permanent** (400, 403, 404 and 410 on writes, 405, 413, 422 and other 4xx): the operation is
///   dead-lettered at once (``DeadOperation``): kept with its error and attempts, no longer sent, blocking
///   neither other operations nor pulls.
/// - **Conflicts** (409, 412) go to the conflict policy (a definition's, else the context's); one left
///   unresolved is dead-lettered until the app resolves it.
/// - **401**: state ``SyncEngineState/blockedAuth`` until ``credentialsChanged()``.
///
/// While it is started, online and in the foreground, the engine keeps one connection to the server's change
/// feed, when the server offers one: a change on the server pulls the definitions of its table within a
/// moment (``SyncTrigger/serverChange``), and ``SyncEngineStatus/changeFeed`` shows whether the feed is live.
///
/// The engine uses the context's push and pull, so everything they promise (queue order per item, atomic
/// commits, crash safety) holds; ``SyncContext`` stays usable call by call beside it.
public actor SyncEngine {
    /// The context synced.
    public nonisolated let context: SyncContext
    /// What each cycle pulls, in order.
    public let definitions: [SyncDefinition]
    /// Retry, breaker and scheduling settings.
    public let configuration: SyncEngineConfiguration
    /// Where the engine learns whether the network is up (`nil`: it assumes it is).
    public nonisolated let networkMonitor: (any NetworkMonitor)?

    nonisolated let clock: any SyncClock
    nonisolated let unitRandom: @Sendable () -> Double
    /// What observers see: state, status, cycle reports, logs and gauges.
    nonisolated let reporter: SyncEngineReporter
    var eventsTask: Task<Void, Never>?
    var refreshingQueueSize = false
    var queueSizeChangedMeanwhile = false

    var cycleTask: Task<SyncCycleReport, Never>?
    var loopTask: Task<Void, Never>?
    var networkTask: Task<Void, Never>?
    /// The change feed connection, while the engine follows one.
    var changeWatcher: ServerChangeWatcher?
    var wakeUp: CheckedContinuation<Void, Never>?
    var sleeper: Task<Void, Never>?
    var sleeperGeneration = 0
    var wakeRequested = false
    var failedCycles = 0
    /// The network came back while the breaker was open: one probe may run before the cooldown ends.
    var reconnectProbeAllowed = false

    /// What each definition is due for, from its schedule and the triggers seen.
    var scheduler: SyncScheduler
    /// When the latest cycle started (the minimum interval counts from it).
    var lastCycleStart: Date?
    /// When each definition was last pulled successfully (for its max age).
    var lastPulled: [Date?]
    /// The state the engine is in when the network is up; while it is down, `offline` is shown instead.
    var settledState: SyncEngineState = .idle
    /// The network monitor's latest word.
    var isOffline = false
    /// Whether the engine was started or ran a cycle (a stop of one that never did is not news).
    var hasRun = false

    /// An engine for `context`.
    ///
    /// - Parameters:
    ///   - context: The context to sync: its queue is pushed and its tables pulled.
    ///   - definitions: What each cycle pulls, in order.
    ///   - configuration: Retry, circuit breaker and scheduling settings.
    ///   - networkMonitor: Where it learns whether the network is up: while it is down the engine is
    ///     ``SyncEngineState/offline`` and sends nothing, and it syncs when it comes back. `nil` (the default):
    ///     the network is assumed up.
    ///   - clock: The time source (``ManualSyncClock`` in tests); by default the context's
    ///     ``SyncContext/clock``.
    ///   - random: Uniform numbers in `[0, 1)` for the backoff jitter (seedable in tests).
    ///   - logger: Where the engine logs: state changes that matter and failed cycles (info), dead letters
    ///     and the breaker opening (warning), routine cycles, each operation and pulled page (debug, with the
    ///     operation id as `operation` metadata).
    ///   - metricsFactory: Where its metrics go (see <doc:TheSyncEngine>); by default the
    ///     backend the app bootstrapped.
    public init(
        context: SyncContext,
        definitions: [SyncDefinition],
        configuration: SyncEngineConfiguration = SyncEngineConfiguration(),
        networkMonitor: (any NetworkMonitor)? = nil,
        clock: (any SyncClock)? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        logger: Logger = Logger(label: "SyncTables.SyncEngine"),
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.context = context
        self.definitions = definitions
        self.configuration = configuration
        self.networkMonitor = networkMonitor
        let clock = clock ?? context.clock
        self.clock = clock
        self.scheduler = SyncScheduler(definitions: definitions, now: clock.now())
        self.lastPulled = Array(repeating: nil, count: definitions.count)
        self.unitRandom = random
        self.reporter = SyncEngineReporter(logger: logger, metricsFactory: metricsFactory)
    }

    // MARK: State

    /// The current state.
    public nonisolated var state: SyncEngineState { reporter.state }

    /// The state, now and at every change (a new stream starts with the current state).
    public nonisolated var states: AsyncStream<SyncEngineState> { reporter.states }

    /// The engine and its queue at a glance.
    public nonisolated var status: SyncEngineStatus { reporter.status }

    /// The status, now and at every change: state changes, cycles, and local writes that change the queue.
    public nonisolated var statuses: AsyncStream<SyncEngineStatus> { reporter.statuses }

    /// The report of every cycle that ends from now on (explicit, scheduled and background ones), e.g. for a
    /// log line per cycle.
    public nonisolated var cycleReports: AsyncStream<SyncCycleReport> { reporter.cycleReports }

    /// Moves to `new`, shown as `offline` while the network is down (except `stopped`).
    func setState(_ new: SyncEngineState) {
        settledState = new
        reporter.show(isOffline && new != .stopped ? .offline : new, engineHasRun: hasRun)
        followChangeFeed()
    }

    // MARK: Running

    /// Starts syncing by itself: the queue is pushed now (or when a persisted backoff ends) with the
    /// definitions that sync on ``SyncTrigger/appStart``; then each definition syncs as its ``SyncSchedule``
    /// says, failed cycles and operations are retried when their backoff ends, and the network monitor's
    /// changes are followed. Calling it again does nothing.
    public func start() async {
        guard loopTask == nil else { return }
        hasRun = true
        if state == .stopped { setState(.idle) }
        await refreshQueueStatistics()
        listenToEvents()
        // The store is the truth (a wipe, say, may have removed the backoff and pull times since a stop).
        failedCycles = 0
        if let persisted = try? await context.engineBackoff() {
            failedCycles = persisted.failures
            if persisted.until > clock.now() {
                let breakerOpen = persisted.failures >= configuration.breakerThreshold
                setState(breakerOpen ? .paused(until: persisted.until) : .backoff(until: persisted.until))
            }
        }
        for (index, definition) in definitions.enumerated() {
            lastPulled[index] = try? await context.lastPullTime(table: definition.table, queryId: definition.queryId)
        }
        await listenToNetwork()
        let now = clock.now()
        scheduler = SyncScheduler(definitions: definitions, now: now)
        scheduler.fire(.appStart, at: now)
        loopTask = Task { await self.runLoop() }
        followChangeFeed()
    }

    /// Stops: cancels the running cycle between two operations (nothing is lost: a cancelled push keeps
    /// what it did not send) and waits for it. ``syncNow(reason:)`` does nothing until ``start()``.
    public func stop() async {
        let loop = loopTask
        loopTask = nil
        followChangeFeed()
        loop?.cancel()
        eventsTask?.cancel()
        eventsTask = nil
        networkTask?.cancel()
        networkTask = nil
        wake()
        cycleTask?.cancel()
        _ = await cycleTask?.value
        await loop?.value
        setState(.stopped)
    }

    /// Tells the engine the credentials changed after a 401: it leaves ``SyncEngineState/blockedAuth`` and
    /// runs a cycle.
    public func credentialsChanged() {
        guard settledState == .blockedAuth else { return }
        setState(.idle)
        scheduler.retry(definitions: Array(definitions.indices), at: clock.now())
        wake()
    }

    /// Runs one cycle now, or joins the one running: push the whole queue, then pull every definition
    /// (whatever its ``SyncSchedule/maxAge``). This is what a "Sync now" or "Retry now" button calls.
    ///
    /// It runs in `idle` and `backoff`: an explicit call does not wait out a cycle backoff or the minimum
    /// interval (operations still wait for their own retry time). While the circuit breaker is open it
    /// runs the breaker's probe at once: a probe that succeeds closes the breaker and the cycle goes on, one
    /// that fails keeps the breaker open with its cooldown started again. It does not run while stopped,
    /// offline or blocked on credentials.
    @discardableResult
    public func syncNow(reason: String = "manual") async -> SyncCycleReport {
        await cycle(reason: reason, definitions: nil, explicit: true).value
    }

    /// Starts a cycle pulling `selected` (`nil`: every definition, whatever its max age), or returns the
    /// running one. An `explicit` cycle (the app asked for it) probes an open breaker before its cooldown
    /// ends.
    func cycle(reason: String, definitions selected: [Int]?, explicit: Bool) -> Task<SyncCycleReport, Never> {
        if let cycleTask { return cycleTask }
        hasRun = true
        let now = clock.now()
        lastCycleStart = now
        if selected == nil { scheduler.pulledAll(at: now) }
        let (timer, reporter) = (reporter.metrics.cycleDuration, reporter)
        let task = Task {
            let report = await SyncEngineMetrics.measure(timer) {
                await self.runCycle(reason: reason, selected: selected, explicit: explicit)
            }
            reporter.publish(report)
            // The loop may sleep on a deadline from before this cycle (one the app or a background task
            // ran): it looks again at what is due now (a retry, the end of a backoff or pause).
            self.wakeLoop()
            return report
        }
        cycleTask = task
        return task
    }

    // MARK: One cycle

    /// Wakes the loop of a started engine.
    private func wakeLoop() {
        if loopTask != nil { wake() }
    }

    private func runCycle(reason: String, selected: [Int]?, explicit: Bool) async -> SyncCycleReport {
        // Cleared with the final state change, so a call after this cycle's outcome starts a new one.
        defer { cycleTask = nil }
        var report = SyncCycleReport(reason: reason, outcome: .completed)
        let now = clock.now()
        // Definitions pulled recently enough for their max age are not due (an explicit sync pulls them all).
        var toPull = selected ?? Array(definitions.indices)
        if selected != nil {
            report.notDue = toPull.filter { !isDue($0, at: now) }.map { definitions[$0].table }
            toPull = toPull.filter { isDue($0, at: now) }
        }
        switch state {
        case .stopped, .blockedAuth, .offline:
            report.outcome = .skipped(state)
            return report
        case .paused(let until) where now < until && !explicit && !reconnectProbeAllowed:
            report.outcome = .skipped(state)
            return report
        case .paused:
            // Half-open: one probe request decides whether the breaker closes (after the cooldown, at once
            // for the app's explicit call, or once after the network came back).
            reconnectProbeAllowed = false
            setState(.syncing(.probing))
            if let table = definitions.first?.table {
                do {
                    try await context.probe(table: table)
                } catch {
                    scheduler.retry(definitions: toPull, at: now)
                    return await failCycle(
                        &report, reason: "probe failed: \(error)", class: SyncCycle.classify(error),
                        retryAfter: SyncCycle.retryAfter(of: error))
                }
            }
            reporter.logger.info("sync engine circuit breaker closed after a successful probe")
        default:
            break
        }

        let work = SyncCycle(
            context: context, definitions: definitions,
            failurePolicy: EngineFailurePolicy(
                retry: configuration.retry, now: now, clock: clock, unitRandom: unitRandom,
                conflictPolicies: definitions.reduce(into: [:]) { policies, definition in
                    if let policy = definition.conflictPolicy { policies[definition.table] = policy }
                }, logger: reporter.logger),
            metrics: reporter.metrics, logger: reporter.logger, clock: clock)
        let deadBefore = reporter.deadOperations
        let outcome = await work.run(report, toPull: toPull) { step in
            await self.cycleStep(step, deadBefore: deadBefore)
        }
        report = outcome.report
        if let pushed = outcome.pushSucceededAt { reporter.pushSucceeded(at: pushed) }
        for (index, time) in outcome.pulled { lastPulled[index] = time }
        switch outcome.ending {
        case .completed:
            break
        case .cancelled(let retry):
            scheduler.retry(definitions: retry, at: now)
            report.outcome = .cancelled
            setState(.idle)
            return report
        case .failed(let reason, let retryAfter, let retry):
            scheduler.retry(definitions: retry, at: now)
            return await failCycle(&report, reason: reason, class: .transient, retryAfter: retryAfter)
        case .blockedOnCredentials:
            return blockOnCredentials(&report)
        }

        failedCycles = 0
        if report.failedPulls.isEmpty { reporter.pullSucceeded(at: clock.now()) }
        try? await context.setEngineBackoff(nil)
        await refreshQueueStatistics()
        setState(.idle)
        reporter.logger.debug("\(report)")
        return report
    }

    /// Follows a cycle's steps: the state shows them, and the queue's counts follow the push.
    private func cycleStep(_ step: SyncCycle.Step, deadBefore: Int) async {
        switch step {
        case .pushing:
            setState(.syncing(.pushing))
        case .pushed:
            await refreshQueueStatistics()
            reporter.metrics.deadLettered.increment(by: max(0, reporter.deadOperations - deadBefore))
        case .pulling(let table):
            setState(.syncing(.pulling(table: table)))
        }
    }

    /// Whether definition `index` is due for a pull at `now`: its last success is older than its max age.
    private func isDue(_ index: Int, at now: Date) -> Bool {
        guard let maxAge = definitions[index].schedule.maxAge, let last = lastPulled[index] else { return true }
        return now.timeIntervalSince(last) >= maxAge.timeInterval
    }

    private func blockOnCredentials(_ report: inout SyncCycleReport) -> SyncCycleReport {
        report.outcome = .failed(reason: "the server answered 401 Unauthorized")
        setState(.blockedAuth)
        return report
    }

    /// Counts a failed cycle: backoff, or the breaker opens after too many in a row. A server's
    /// `Retry-After` (503, 429) replaces the backoff's delay and lengthens a breaker cooldown shorter than it.
    private func failCycle(
        _ report: inout SyncCycleReport, reason: String, class failure: FailureClass, retryAfter: Duration? = nil
    ) async -> SyncCycleReport {
        if failure == .authentication { return blockOnCredentials(&report) }
        report.outcome = .failed(reason: reason)
        failedCycles += 1
        let now = clock.now()
        let until: Date
        if failedCycles >= configuration.breakerThreshold {
            until = now.addingTimeInterval(max(configuration.breakerCooldown, retryAfter ?? .zero).timeInterval)
            setState(.paused(until: until))
            reporter.logger.warning("sync engine circuit breaker open", metadata: ["failedCycles": "\(failedCycles)"])
        } else {
            let delay = retryAfter ?? configuration.retry.delay(afterFailures: failedCycles, unit: unitRandom())
            until = now.addingTimeInterval(delay.timeInterval)
            setState(.backoff(until: until))
        }
        try? await context.setEngineBackoff(EngineBackoff(failures: failedCycles, until: until))
        reporter.logger.info(
            "sync cycle failed", metadata: ["reason": "\(reason)", "failedCycles": "\(failedCycles)"])
        return report
    }
}
