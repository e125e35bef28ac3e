import Foundation

/// A serial executor backed by one dedicated thread, so an actor's blocking SQLite calls never occupy a
/// thread of Swift's shared cooperative pool.
///
/// Jobs run in the order they were enqueued. ``shutdown()`` lets the thread finish the queued jobs and exit.
package final class SerialThreadExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var isShuttingDown = false
    private let condition = NSCondition()

    /// The `threadDictionary` key under which an executor thread records its name.
    package static let threadMarkerKey = "SyncTables.SerialThreadExecutor"
    private static let identityKey = "SyncTables.SerialThreadExecutor.identity"

    /// Starts the thread; `name` (at most 15 bytes, a Linux limit) shows up in debuggers and crash logs.
    package init(name: String) {
        let thread = Thread { [self] in
            Thread.current.name = name
            // Linux Foundation may keep the creating thread's name, so the thread also carries a marker.
            Thread.current.threadDictionary[SerialThreadExecutor.threadMarkerKey] = name
            Thread.current.threadDictionary[SerialThreadExecutor.identityKey] = ObjectIdentifier(self)
            run()
        }
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Stops the process when called off this executor's thread (the runtime's check behind
    /// `assumeIsolated` for actors running here).
    package func checkIsolated() {
        precondition(isCurrentThread, "expected to run on the thread of this SerialThreadExecutor")
    }

    /// `true` on this executor's own thread.
    package var isCurrentThread: Bool {
        Thread.current.threadDictionary[Self.identityKey] as? ObjectIdentifier == ObjectIdentifier(self)
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    package func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Lets the thread exit once every queued job has run.
    package func shutdown() {
        condition.lock()
        isShuttingDown = true
        condition.signal()
        condition.unlock()
    }

    /// How many times the idle thread yields and looks for work before it sleeps on the condition.
    private static let pollsBeforeSleeping = 100

    private func run() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            if jobs.isEmpty && !isShuttingDown {
                // A caller usually sends its next call within microseconds of the previous answer: poll
                // briefly before sleeping, so back-to-back calls skip a full thread wake-up.
                for _ in 0..<Self.pollsBeforeSleeping where jobs.isEmpty && !isShuttingDown {
                    condition.unlock()
                    sched_yield()
                    condition.lock()
                }
            }
            while jobs.isEmpty && !isShuttingDown { condition.wait() }
            if jobs.isEmpty && isShuttingDown {
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
