import Foundation

/// What the ``SyncEngine`` has been asked to sync and when: each definition's next interval, the triggers that
/// fired for it, its pending local-write debounce, and whether the queue waits for a push. Pure bookkeeping on
/// the times it is given; the engine sleeps until ``nextDeadline`` and then takes what is due.
struct SyncScheduler: Sendable {
    private let schedules: [SyncSchedule]
    private let tables: [String]
    /// The earliest time a trigger asked for each definition.
    private var requested: [Date?]
    /// When the latest burst of local writes to each definition's table has settled.
    private var debounced: [Date?]
    /// When each definition's interval comes next (counted while the app is active).
    private var intervalDue: [Date?]
    /// When the queue is to be pushed even if no definition is due (start, reconnect, a retry time).
    private var pushDue: Date?
    /// Intervals run only while the app is active (in the foreground).
    private(set) var isActive = true

    init(definitions: [SyncDefinition], now: Date) {
        schedules = definitions.map(\.schedule)
        tables = definitions.map(\.table)
        requested = Array(repeating: nil, count: definitions.count)
        debounced = Array(repeating: nil, count: definitions.count)
        intervalDue = schedules.map { $0.interval.map { now.addingTimeInterval($0.timeInterval) } }
    }

    /// The earliest time something is due, if anything is.
    var nextDeadline: Date? {
        var dates = requested.compactMap { $0 } + debounced.compactMap { $0 }
        if isActive { dates += intervalDue.compactMap { $0 } }
        if let pushDue { dates.append(pushDue) }
        return dates.min()
    }

    /// `trigger` fired at `now`: the definitions it syncs are due now, and so is a push.
    mutating func fire(_ trigger: SyncTrigger, at now: Date) {
        for index in schedules.indices where schedules[index].fires(on: trigger) {
            requested[index] = min(requested[index] ?? now, now)
        }
        requestPush(at: now)
    }

    /// A local write to `table` at `now`: the definitions of that table that sync after local writes are due
    /// once no further write comes for their debounce (each write moves it). Returns whether any is.
    mutating func localWrite(table: String, at now: Date) -> Bool {
        var any = false
        for index in schedules.indices where tables[index].caseInsensitiveCompare(table) == .orderedSame {
            guard let debounce = schedules[index].localWriteDebounce else { continue }
            debounced[index] = now.addingTimeInterval(debounce.timeInterval)
            any = true
        }
        return any
    }

    /// The server announced a change of `table` (`nil`: of any table) at `now`: the definitions of that table
    /// that sync on server changes are due after `debounce` (later changes within it do not move it, so a
    /// steady stream of changes still syncs). Returns whether any is.
    mutating func serverChange(table: String?, at now: Date, debounce: Duration) -> Bool {
        let due = now.addingTimeInterval(debounce.timeInterval)
        var any = false
        for index in schedules.indices where schedules[index].fires(on: .serverChange) {
            if let table, tables[index].caseInsensitiveCompare(table) != .orderedSame { continue }
            requested[index] = min(requested[index] ?? due, due)
            any = true
        }
        return any
    }

    /// Asks for a push (and so a cycle) at `date`, or earlier if one is already asked for.
    mutating func requestPush(at date: Date) {
        pushDue = min(pushDue ?? date, date)
    }

    /// Asks again for `definitions` (a cycle failed before pulling them) and a push, as soon as allowed.
    mutating func retry(definitions: [Int], at now: Date) {
        for index in definitions { requested[index] = min(requested[index] ?? now, now) }
        requestPush(at: now)
    }

    /// Foreground (intervals run) or background (they wait until the next foreground).
    mutating func setActive(_ active: Bool) {
        isActive = active
    }

    /// Takes what is due at `now`: whether a cycle is due at all, and which definitions it pulls. Their
    /// requests are cleared and their intervals start again from `now`.
    mutating func takeDue(at now: Date) -> (cycleDue: Bool, definitions: [Int]) {
        var due: [Int] = []
        for index in schedules.indices {
            let byTrigger = [requested[index], debounced[index]].contains { $0.map { $0 <= now } ?? false }
            let byInterval = isActive && (intervalDue[index].map { $0 <= now } ?? false)
            guard byTrigger || byInterval else { continue }
            due.append(index)
            requested[index] = nil
            debounced[index] = nil
            if let interval = schedules[index].interval {
                intervalDue[index] = now.addingTimeInterval(interval.timeInterval)
            }
        }
        let pushIsDue = pushDue.map { $0 <= now } ?? false
        if pushIsDue { pushDue = nil }
        return (pushIsDue || !due.isEmpty, due)
    }

    /// A cycle pulled every definition at `now` (an explicit sync): their intervals start again.
    mutating func pulledAll(at now: Date) {
        for index in schedules.indices {
            requested[index] = nil
            if let interval = schedules[index].interval {
                intervalDue[index] = now.addingTimeInterval(interval.timeInterval)
            }
        }
    }
}
