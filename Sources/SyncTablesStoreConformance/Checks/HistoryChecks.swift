import Foundation
import SyncTables

/// The operation history a context keeps in every store (the `__history` table): entries written with the
/// outcomes they record, read back newest first, and pruned by count and by age in the same transactions.
enum HistoryChecks {
    /// Answers for the server without sending anything: confirms every operation but those of the items
    /// named in `refused`, which fail.
    struct AnsweringHandler: PushHandler {
        struct Refused: Error {}

        let refused: Set<String>

        func execute(_ operation: PushOperation, send: PushOperation.Sender) async throws -> JSONObject? {
            if refused.contains(operation.itemId) { throw Refused() }
            return operation.kind == .delete ? nil : operation.item
        }
    }

    /// A context on a fresh store whose pushes `AnsweringHandler` answers, dated by `clock`.
    static func context(
        _ makeStore: @Sendable () async throws -> any LocalStore, refused: Set<String>, clock: ManualSyncClock,
        historyRetention: OperationHistoryRetention = .default
    ) async throws -> SyncContext {
        guard let url = URL(string: "http://127.0.0.1:9") else { throw ConformanceFailure("no URL") }
        return try await SyncContext(
            store: try await makeStore(), client: SyncClient(url: url),
            configuration: SyncContext.Configuration(
                pushHandler: AnsweringHandler(refused: refused), historyRetention: historyRetention, clock: clock))
    }

    static func summary(_ history: [OperationHistoryEntry]) -> [String] {
        history.map { "\($0.sequence) \($0.itemId) \($0.outcome.rawValue) \($0.attempts)" }
    }

    static let all: [StoreConformanceCheck] = [
        StoreConformanceCheck(name: "pushed, failed and discarded operations are recorded in the history, newest first")
        {
            makeStore in
            let clock = ManualSyncClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            let context = try await context(makeStore, refused: ["b"], clock: clock)
            let table = try await context.table(JSONObject.self, named: "Item")
            for id in ["a", "b", "c"] { _ = try await table.insert(["id": .string(id)]) }

            _ = try? await context.push()
            clock.advance(by: .seconds(5))
            let failed = try await context.pendingOperations()
            try Expect.equal(failed.map(\.itemId), ["b"], "the refused operation stays queued")
            try await context.discardPendingOperation(id: failed[0].id)

            let history = try await context.history()
            try Expect.equal(
                summary(history), ["4 b discarded 1", "3 c pushed 1", "2 b failed 1", "1 a pushed 1"], "the history")
            try Expect.equal(history[2].operationId, failed[0].id, "an entry names its operation")
            try Expect.isTrue(history[2].message != nil && history[2].status == nil, "a failure keeps its message")
            try Expect.equal(
                history.map(\.recordedAt.timeIntervalSince1970),
                [1_800_000_005, 1_800_000_000, 1_800_000_000, 1_800_000_000], "times by the context's clock")
            try Expect.equal(try await context.history(table: "Item", limit: 1).map(\.sequence), [4], "table and limit")
            try Expect.equal(try await context.history(table: "Other").count, 0, "another table's history")
            try await context.close()
        },
        StoreConformanceCheck(name: "the history keeps what its retention allows, by count and by age") { makeStore in
            let clock = ManualSyncClock(start: Date(timeIntervalSince1970: 1_800_000_000))
            let context = try await context(
                makeStore, refused: [], clock: clock,
                historyRetention: OperationHistoryRetention(maxEntries: 3, maxAge: .seconds(100)))
            let table = try await context.table(JSONObject.self, named: "Item")
            for id in ["a", "b", "c", "d"] {
                _ = try await table.insert(["id": .string(id)])
                _ = try await context.push()
                clock.advance(by: .seconds(40))
            }
            try Expect.equal(summary(try await context.history()).count, 3, "the count limit")

            // d at 120 s is kept; c (80 s) and b (40 s) are more than 100 s older than e at 220 s.
            clock.advance(by: .seconds(60))
            _ = try await table.insert(["id": "e"])
            _ = try await context.push()

            try Expect.equal(summary(try await context.history()), ["5 e pushed 1", "4 d pushed 1"], "the age limit")
            try Expect.equal(
                try await context.store.count(StoreQuery(table: "__history")), 2, "pruned rows are gone from the store")
            try await context.close()
        },
    ]
}
