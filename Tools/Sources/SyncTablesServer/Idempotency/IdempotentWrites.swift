import Hummingbird
import Logging
import SyncTables

/// The idempotency extension around the table writes (`POST`, `PATCH`, `DELETE` and undelete `POST` on
/// `/tables/…`): a write that carries an `Idempotency-Key` runs once per key and caller, and a repeat gets
/// the first answer back.
///
/// The first request with a key runs as usual; when it succeeds, its answer is recorded in the write's own
/// transaction. Failures are not recorded: they changed nothing, so running them again is harmless. A repeat
/// with the same key, method and path gets the recorded answer without running; the same key with another
/// method or path is a 422. Records expire after ``retention`` (see ``BoundedSweeper``).
struct IdempotentWrites: Sendable {
    let storage: any IdempotencyStorage
    /// How long records replay; zero turns the extension off (keys are then ignored).
    let retention: Duration
    let clock: any SyncClock
    /// Removes expired records after keyed writes, up to 1000 a step.
    let sweeper: BoundedSweeper

    init(storage: any IdempotencyStorage, configuration: SyncServerConfiguration) {
        self.storage = storage
        retention = configuration.idempotencyKeyRetention
        clock = configuration.clock
        sweeper = .idempotencyRecords(
            of: storage, retention: retention, clock: clock, logger: configuration.logger)
    }

    /// Whether the server offers the extension.
    var isOffered: Bool { retention > .zero }

    /// Answers a write: `run` performs it (recording its answer when given a recording) and returns the item;
    /// the answer has `status` and carries the item unless `carriesItem` is false.
    func answer(
        _ request: Request,
        caller: Caller,
        path: String,
        status: HTTPResponse.Status,
        carriesItem: Bool = true,
        _ run: (IdempotentRecording?) async throws -> JSONObject
    ) async throws -> Response {
        guard isOffered, let key = try IdempotencyKey.key(of: request) else {
            let item = try await run(nil)
            return WriteAnswer(status: status.code, item: carriesItem ? item : nil).response
        }
        let keyed = IdempotentRequest(
            scope: IdempotentRequest.scope(of: caller), key: key, method: request.method.rawValue, path: path)
        let now = clock.now().millisecondsSince1970
        let expiredBefore = now - retention.milliseconds
        if let record = try await storage.idempotencyRecord(of: keyed, expiredBefore: expiredBefore) {
            return try record.replay(for: keyed)
        }
        let recording = IdempotentRecording(
            request: keyed, recordedAt: now, expiredBefore: expiredBefore, status: status.code,
            carriesItem: carriesItem)
        let item: JSONObject
        do {
            item = try await run(recording)
        } catch let taken as IdempotencyKeyTaken {
            return try taken.record.replay(for: keyed)
        }
        await sweeper.sweepIfDue()
        return recording.record(of: item).answer.response
    }
}

extension BoundedSweeper {
    /// Removes records of keyed writes older than `retention`, up to 1000 a step.
    static func idempotencyRecords(
        of storage: any IdempotencyStorage, retention: Duration, clock: any SyncClock, logger: Logger
    ) -> BoundedSweeper {
        BoundedSweeper(removing: "expired idempotency records", stepLimit: 1000, clock: clock, logger: logger) {
            now, limit in
            try await storage.removeIdempotencyRecords(
                expiredBefore: now.millisecondsSince1970 - retention.milliseconds, limit: limit)
        }
    }
}
