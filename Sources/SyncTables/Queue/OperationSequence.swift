import Foundation

/// Hands out the context-wide, strictly increasing operation sequence numbers.
///
/// Numbers are taken inside store transactions, which the store runs one at a time, so they increase
/// in commit order and a push walking the queue "after sequence n" never skips a later commit. A
/// rolled-back transaction leaves a gap, which is harmless. The lock only makes the counter safe to
/// share with the store's executor.
final class OperationSequence: @unchecked Sendable {
    private let lock = NSLock()
    private var last: Int

    /// Creates a counter that continues after `last`.
    init(continuingAfter last: Int) {
        self.last = last
    }

    /// The next number.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        last += 1
        return last
    }

    /// The last number handed out.
    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return last
    }
}
