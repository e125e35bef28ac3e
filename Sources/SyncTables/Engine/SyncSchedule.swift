/// When the ``SyncEngine`` syncs one ``SyncDefinition`` by itself.
///
/// A cycle pushes the whole queue, then pulls the definitions that are due: those whose interval has passed
/// or whose trigger fired, less those pulled more recently than their ``maxAge``.
///
/// ```swift
/// // Every 15 minutes while the app is active, when it comes to the foreground, and 2 s after local writes.
/// let schedule = SyncSchedule(
///     interval: .seconds(900), triggers: [.foreground, .networkReconnect, .afterLocalWrite(debounce: .seconds(2))],
///     maxAge: .seconds(60))
/// SyncDefinition(todos, queryId: "all-todos", schedule: schedule)
/// ```
public struct SyncSchedule: Sendable, Hashable {
    /// How often the definition is synced while the app is active (`nil`: only by triggers).
    public var interval: Duration?
    /// The events that sync the definition.
    public var triggers: Set<SyncTrigger>
    /// A pull is due only when the last successful one is older than this (`nil`: always due).
    public var maxAge: Duration?

    /// A schedule; by default the definition syncs when the network comes back (and on every explicit
    /// ``SyncEngine/syncNow(reason:)``). Add ``SyncTrigger/serverChange`` to pull it as soon as the server
    /// announces a change of its table.
    public init(interval: Duration? = nil, triggers: Set<SyncTrigger> = [.networkReconnect], maxAge: Duration? = nil) {
        self.interval = interval
        self.triggers = triggers
        self.maxAge = maxAge
    }

    /// The debounce of the ``SyncTrigger/afterLocalWrite(debounce:)`` trigger, if it is one of the triggers
    /// (the shortest if several are).
    var localWriteDebounce: Duration? {
        guard !triggers.contains(.intervalOnly) else { return nil }
        return triggers.compactMap { trigger -> Duration? in
            if case .afterLocalWrite(let debounce) = trigger { return debounce }
            return nil
        }.min()
    }

    /// Whether `trigger` syncs the definition.
    func fires(on trigger: SyncTrigger) -> Bool {
        !triggers.contains(.intervalOnly) && triggers.contains(trigger)
    }
}

/// An event that makes the ``SyncEngine`` sync a definition (see ``SyncSchedule``).
public enum SyncTrigger: Sendable, Hashable {
    /// ``SyncEngine/start()``.
    case appStart
    /// ``SyncEngine/enteredForeground()``.
    case foreground
    /// The network monitor reports the network back after it was down.
    case networkReconnect
    /// A local write to the definition's table, once no other write has come for `debounce` (a burst of
    /// writes is one sync).
    case afterLocalWrite(debounce: Duration)
    /// The server's change feed announced a change of the definition's table (see
    /// ``SyncEngineStatus/changeFeed``); changes within ``SyncEngineConfiguration/serverChangeDebounce`` of
    /// the first are one sync. A server without a feed never fires it.
    case serverChange
    /// Only the interval syncs the definition: every other trigger is ignored.
    case intervalOnly
}
