import Logging
import PostgresNIO

/// One instance's ear on the database: a dedicated connection that runs `LISTEN` on the schema's change channel
/// and hands every notification to the hub, its own writes' included (one path for all).
///
/// When the connection fails, the listener reconnects with backoff and, once listening again, publishes a reset:
/// writes committed while it was away were never heard. A `SELECT 1` every ``healthCheckInterval`` finds a
/// connection that died without closing. There is no polling of tables.
final class PostgresChangeListener: Sendable {
    private let task: Task<Void, Never>

    /// How often the listening connection is checked.
    static let healthCheckInterval = Duration.seconds(30)
    /// How long the check may take before the connection counts as lost.
    static let healthCheckTimeout = Duration.seconds(10)
    /// The first and the longest wait before reconnecting.
    static let backoff = (first: Duration.milliseconds(100), longest: Duration.seconds(5))

    private init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Connects and listens on `channel`, and returns once listening; throws when the first attempt fails.
    static func start(database: PostgresStorage, channel: String, hub: ChangeHub, logger: Logger) async throws
        -> PostgresChangeListener
    {
        var configuration = try database.connectionConfiguration()
        // Names the listening session in `pg_stat_activity` by its channel (and so by its schema).
        configuration.options.additionalStartupParameters.append(("application_name", channel))
        let first = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        let (listening, signal) = AsyncThrowingStream<Void, any Error>.makeStream()
        let task = Task {
            var connection: PostgresConnection? = first
            var hasListened = false
            var wait = backoff.first
            while !Task.isCancelled {
                do {
                    let current: PostgresConnection
                    if let connection {
                        current = connection
                    } else {
                        current = try await PostgresConnection.connect(
                            configuration: configuration, id: 0, logger: logger)
                        connection = current
                    }
                    try await listen(on: current, channel: channel, hub: hub, logger: logger) {
                        if hasListened {
                            logger.notice("Listening for changes again; telling the change feeds to reset")
                            hub.reset(reason: "the server's link to the database was re-established")
                        } else {
                            hasListened = true
                            signal.finish()
                        }
                        wait = backoff.first
                    }
                } catch {
                    if !hasListened {
                        signal.finish(throwing: error)
                        break
                    }
                    if !Task.isCancelled {
                        logger.warning(
                            "The change listener lost its connection: \(PostgresTableStorage.summary(error))")
                    }
                }
                try? await connection?.close()
                connection = nil
                guard (try? await Task.sleep(for: wait)) != nil else { break }
                wait = min(wait * 2, backoff.longest)
            }
            try? await connection?.close()
            signal.finish()
        }
        do {
            for try await _ in listening {}
        } catch {
            task.cancel()
            await task.value
            throw error
        }
        return PostgresChangeListener(task: task)
    }

    /// Stops listening and closes the connection.
    func stop() async {
        task.cancel()
        await task.value
    }

    /// Listens on `connection` until it fails: `established` runs once `LISTEN` took effect.
    private static func listen(
        on connection: PostgresConnection, channel: String, hub: ChangeHub, logger: Logger,
        established: () -> Void
    ) async throws {
        try await connection.listen(on: channel) { notifications in
            established()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await notification in notifications {
                        receive(notification.payload, hub: hub, logger: logger)
                    }
                    throw ListenerEnded()
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: healthCheckInterval)
                        try await check(connection, logger: logger)
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }

    /// Hands one notification to the hub; one it cannot read means changes it cannot name: a reset.
    private static func receive(_ payload: String, hub: ChangeHub, logger: Logger) {
        switch PostgresChangeNotification(payload: payload) {
        case .change(let announcement)?:
            hub.publish([announcement])
        case .reset(let reason)?:
            hub.reset(reason: reason)
        case nil:
            logger.warning("An unreadable change notification; telling the change feeds to reset")
            hub.reset(reason: "an unreadable change notification")
        }
    }

    /// Throws unless `SELECT 1` answers within ``healthCheckTimeout``.
    private static func check(_ connection: PostgresConnection, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await _ in try await connection.query("SELECT 1", logger: logger) {}
            }
            group.addTask {
                try await Task.sleep(for: healthCheckTimeout)
                // Closing fails the unanswered check, which would otherwise keep this group waiting.
                try? await connection.close()
                throw ListenerEnded()
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// The notifications ended: the connection closed.
    private struct ListenerEnded: Error {}
}
