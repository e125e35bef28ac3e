import Foundation

/// A serial executor backed by one dedicated thread, so an actor's blocking SQLite calls never occupy a
/// thread of Swift's shared cooperative pool.
///
/// Jobs run in the order they were enqueued. ``shutdown()`` lets the thread finish the queued jobs and exit.
final class SerialThreadExecutor: SerialExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var isShuttingDown = false
    private let condition = NSCondition()

    /// Starts the thread; `name` shows up in debuggers and crash logs.
    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread exit once every queued job has run.
    func shutdown() {
        condition.lock()
        isShuttingDown = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
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
