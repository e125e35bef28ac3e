import Foundation

/// A value guarded by a lock: the one lock of the library, the SQLite layer, the server and the tools, for
/// the little state that several threads touch outside an actor.
///
/// ```swift
/// let counter = LockedState(0)
/// let next = counter.withLock { value in
///     value += 1
///     return value
/// }
/// ```
///
/// Its API is that of the standard library's `Synchronization.Mutex`, which would replace it but needs
/// macOS 15 and iOS 18 (the package supports macOS 14 and iOS 17). It is a class, so it can be stored in a
/// `let` and shared.
///
/// `@unchecked Sendable` is sound because every access to the value goes through ``withLock(_:)``, whose
/// body gets the value and returns its result as `sending`: nothing that is not `Sendable` escapes the lock
/// into another isolation domain. The initial value is not checked that way (a connection opened by a
/// caller's closure could not be handed over otherwise): give ``init(_:)`` a value nothing else keeps.
@_spi(SyncTablesTools) public final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Guards `initial`.
    @_spi(SyncTablesTools) public init(_ initial: State) {
        state = initial
    }

    /// Runs `body` with the value, holding the lock; `body` must not call ``withLock(_:)`` on the same
    /// instance (the lock is not recursive).
    @_spi(SyncTablesTools) public func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
