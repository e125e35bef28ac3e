import Foundation

/// The ``SyncEngine`` at a glance, for an app's sync indicator or "sync activity" screen.
public struct SyncEngineStatus: Sendable, Hashable {
    /// What the engine is doing.
    public var state: SyncEngineState
    /// Operations waiting in the queue (dead ones included).
    public var pendingOperations: Int
    /// Dead-lettered operations (see ``DeadOperation``).
    public var deadOperations: Int
    /// When the oldest queued operation was created, if any is queued.
    public var oldestPendingOperationDate: Date?
    /// When a push last went through the whole queue without being aborted.
    public var lastSuccessfulPush: Date?
    /// When every definition was last pulled without a failure.
    public var lastSuccessfulPull: Date?
    /// Whether the engine hears of server changes as they happen.
    public var changeFeed: ChangeFeedStatus = .off

    /// How long the oldest queued operation has waited at `now` (zero when the queue is empty).
    public func oldestPendingOperationAge(at now: Date = Date()) -> Duration {
        guard let oldest = oldestPendingOperationDate else { return .zero }
        return .seconds(max(0, now.timeIntervalSince(oldest)))
    }
}
