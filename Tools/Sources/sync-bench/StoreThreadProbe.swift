import Foundation

/// What the two thread switches of an awaited store call cost on this machine (pool → the store's thread
/// → pool) when each call keeps the store's thread busy as a write does.
///
/// The probe shares the store's thread and its calls only spin for a given time, so their awaited rate is
/// the most any awaited call of that length can reach here, however little the library adds to the SQL.
actor StoreThreadProbe {
    nonisolated let unownedExecutor: UnownedSerialExecutor

    init(sharingThreadOf store: any Actor) {
        unownedExecutor = store.unownedExecutor
    }

    /// Keeps the store's thread busy for `nanoseconds` without sleeping, as SQLite work does.
    func occupy(nanoseconds: UInt64) {
        let end = Stopwatch.now() + nanoseconds
        while Stopwatch.now() < end {}
    }

    /// Awaits `count` calls of `nanoseconds` each, one after another from the shared pool; the seconds taken.
    nonisolated func awaitCalls(_ count: Int, nanoseconds: UInt64) async -> Double {
        await Task.detached {
            await Stopwatch.time {
                for _ in 0..<count { await self.occupy(nanoseconds: nanoseconds) }
            }
        }.value
    }
}
