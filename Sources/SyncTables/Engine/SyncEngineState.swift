import Foundation

/// What the ``SyncEngine`` is doing; observe it through ``SyncEngine/states``.
///
/// Transitions: `idle` → `syncing` on each cycle; a cycle ends in `idle` (it worked, or only some operations
/// failed and wait for their own retry time), `backoff(until:)` (a transient failure: transport error,
/// timeout, 5xx, 429), `paused(until:)` (the circuit breaker opened after too many failed cycles in a row;
/// no request reaches the server until the time has passed and a probe request succeeds) or `blockedAuth`
/// (a 401: nothing is sent until ``SyncEngine/credentialsChanged()``). `offline` is set while the network
/// is known to be down. ``SyncEngine/stop()`` leads to `stopped` from any state.
public enum SyncEngineState: Sendable, Hashable, CustomStringConvertible {
    /// Waiting for the next reason to sync.
    case idle
    /// A cycle is running.
    case syncing(SyncPhase)
    /// The last cycle failed transiently; the next one runs at this time.
    case backoff(until: Date)
    /// The network is down: no requests are sent.
    case offline
    /// The server answered 401: nothing is sent until the app signals new credentials.
    case blockedAuth
    /// The circuit breaker is open: no request reaches the server before this time.
    case paused(until: Date)
    /// Stopped: no cycle runs.
    case stopped

    /// The state in a few words, e.g. `backoff until 2026-11-26T10:00:00Z`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .syncing(let phase): "syncing (\(phase))"
        case .backoff(let until): "backoff until \(until.formatted(.iso8601))"
        case .offline: "offline"
        case .blockedAuth: "blocked: the server needs new credentials"
        case .paused(let until): "paused until \(until.formatted(.iso8601))"
        case .stopped: "stopped"
        }
    }
}

extension SyncEngineState {
    /// Idle or syncing: what an engine does all day, not worth an info log line.
    var isRoutine: Bool {
        switch self {
        case .idle, .syncing: true
        default: false
        }
    }
}

/// The part of a cycle that is running.
public enum SyncPhase: Sendable, Hashable, CustomStringConvertible {
    /// The half-open circuit breaker's single probe request.
    case probing
    /// Pushing the queue.
    case pushing
    /// Pulling one definition's table.
    case pulling(table: String)

    /// The phase in a few words, e.g. `pulling TodoItem`.
    public var description: String {
        switch self {
        case .probing: "probing"
        case .pushing: "pushing"
        case .pulling(let table): "pulling \(table)"
        }
    }
}
