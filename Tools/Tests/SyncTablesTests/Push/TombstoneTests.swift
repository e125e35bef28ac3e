import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A server item marked `deleted: true` never becomes a live local row, whichever path brings it.
@Suite("Tombstones from the server")
struct TombstoneTests {
    @Test func retriedInsertAnsweredWithTheItemDeletedOnTheServerLeavesNoLiveRow() async throws {
        try await SyncHarness.with { harness in
            // Given: A's insert reached the server but its response was lost, so A keeps the operation.
            let deviceA = try await harness.device()
            try await deviceA.todos.insert(TodoItem(id: "x", text: "milk"))
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TodoItem", action: .lostResponse))
            let lost = try await requirePushFailure {
                try await deviceA.context.push(options: PushOptions(batchSize: 1))
            }
            #expect(lost.status == .abortedNetwork)
            // B pulls the item, deletes it and pushes: the server keeps a tombstone with A's user data.
            let deviceB = try await harness.device()
            try await deviceB.todos.pull()
            try await deviceB.todos.delete(id: "x")
            try await deviceB.context.push()
            #expect(try await harness.serverItem("x")?["deleted"] == .bool(true))

            // When: A pushes again; its POST gets 409 with the deleted item, equal to what A sent.
            try await deviceA.context.push()

            // Then: A's write counts as done, and the deletion that followed it wins locally.
            #expect(try await deviceA.todos.lookup(id: "x") == nil)
            #expect(try await deviceA.context.pendingOperationCount() == 0)
            #expect(try await deviceA.context.pushErrors().isEmpty)
            // A later full pull agrees: nothing comes back to life.
            try await deviceA.todos.pull()
            #expect(try await deviceA.todos.lookup(id: "x") == nil)
        }
    }

    @Test func retriedUpdateAnsweredWithAnEqualDeletedItemRemovesTheRowFromAScriptedServer() async throws {
        // sync-server answers 404 to a PATCH of a soft-deleted row; other servers answer 412 with the
        // tombstone, which only a scripted server can produce here.
        let versions = VersionCounter()
        try await ScriptedHTTPServer.with({ request in
            switch request.method {
            case "POST":
                return .json(201, #"{"id":"x","text":"milk","complete":false,"version":"v1","deleted":false}"#)
            default:  // the retried PATCH: the server holds our data, deleted since by someone else
                let version = versions.next()
                return .json(
                    412,
                    #"{"id":"x","text":"oat milk","complete":false,"version":"v\#(version)","deleted":true}"#)
            }
        }) { server in
            let directory = try TemporaryDirectory()
            let store = try SQLiteStore(path: directory.newDatabasePath())
            let context = try await SyncContext(store: store, client: SyncClient(url: server.baseURL))
            let todos = try await context.table(TodoItem.self)
            try await todos.insert(TodoItem(id: "x", text: "milk"))
            // One request each: this server knows no capabilities document.
            try await context.push(options: PushOptions(batchSize: 1))
            var item = try #require(try await todos.lookup(id: "x"))
            item.text = "oat milk"
            try await todos.update(item)

            try await context.push(options: PushOptions(batchSize: 1))

            #expect(try await todos.lookup(id: "x") == nil)
            #expect(try await context.pendingOperationCount() == 0)
            #expect(try await context.pushErrors().isEmpty)
            #expect(server.requests.map(\.method) == ["POST", "PATCH"])
        }
    }

    @Test func serverWinsOnAConflictWithADeletedItemDeletesTheLocalRow() async throws {
        try await SyncHarness.with { harness in
            // Given: x was created and deleted on the server by B; A inserts its own x offline.
            try await Self.createAndDeleteOnTheServer("x", harness)
            let deviceA = try await harness.device(conflictPolicy: .serverWins)
            try await deviceA.todos.insert(TodoItem(id: "x", text: "from A"))

            // When: A's POST gets 409 with the tombstone (different data: a real conflict).
            try await deviceA.context.push()

            // Then: the server's state, a deletion, is what A keeps.
            #expect(try await deviceA.todos.lookup(id: "x") == nil)
            #expect(try await deviceA.context.pendingOperationCount() == 0)
            #expect(try await deviceA.context.pushErrors().isEmpty)
        }
    }

    @Test func manualResolutionWithTheServersDeletedItemDeletesTheLocalRow() async throws {
        try await SyncHarness.with { harness in
            try await Self.createAndDeleteOnTheServer("x", harness)
            let deviceA = try await harness.device()
            try await deviceA.todos.insert(TodoItem(id: "x", text: "from A"))
            let failure = try await requirePushFailure { try await deviceA.context.push() }
            let conflict = try #require(failure.errors.first)
            let serverItem = try #require(conflict.serverItem)
            #expect(serverItem["deleted"] == .bool(true))

            try await conflict.cancelAndUpdateItem(serverItem)

            #expect(try await deviceA.todos.lookup(id: "x") == nil)
            #expect(try await deviceA.context.pendingOperationCount() == 0)
        }
    }

    @Test func pushHandlerReturningADeletedItemAsTheResultLeavesNoLiveRow() async throws {
        try await SyncHarness.with { harness in
            try await Self.createAndDeleteOnTheServer("x", harness)
            // An app handler that settles a conflict inline by taking the server's copy.
            let store = try SQLiteStore(path: harness.directory.newDatabasePath())
            let context = try await SyncContext(
                store: store, client: SyncClient(url: harness.url),
                configuration: SyncContext.Configuration(pushHandler: TakeServerCopyOnConflict()))
            let todos = try await context.table(TodoItem.self)
            try await todos.insert(TodoItem(id: "x", text: "from A"))

            try await context.push()

            #expect(try await todos.lookup(id: "x") == nil)
            #expect(try await context.pendingOperationCount() == 0)
        }
    }

    @Test func liveServerItemsWithDeletedFalseOrNoFlagStayLiveWhenPushed() async throws {
        // The opposite mistake: only `deleted: true` means deleted.
        let bodies = [
            #"{"id":"a","text":"one","complete":false,"version":"v1","deleted":false}"#,
            #"{"id":"b","text":"two","complete":false,"version":"v1"}"#,
            #"{"id":"c","text":"three","complete":false,"version":"v1","deleted":null}"#,
        ]
        try await ScriptedHTTPServer.with({ request in
            let id = request.body.isEmpty ? "" : (try? JSONObject(parsing: request.body))?["id"]?.stringValue
            let body = bodies.first { $0.contains(#""id":"\#(id ?? "")""#) } ?? "{}"
            return .json(201, body)
        }) { server in
            let directory = try TemporaryDirectory()
            let store = try SQLiteStore(path: directory.newDatabasePath())
            let context = try await SyncContext(store: store, client: SyncClient(url: server.baseURL))
            let todos = try await context.table(TodoItem.self)
            for (id, text) in [("a", "one"), ("b", "two"), ("c", "three")] {
                try await todos.insert(TodoItem(id: id, text: text))
            }

            try await context.push()

            #expect(try await todos.query().fetchAll().map(\.id).sorted() == ["a", "b", "c"])
            #expect(try await todos.lookup(id: "a")?.version == "v1")
        }
    }
}

extension TombstoneTests {
    /// Another device creates the item and deletes it: the server keeps a tombstone with "from B".
    static func createAndDeleteOnTheServer(_ id: String, _ harness: SyncHarness) async throws {
        let other = try await harness.device()
        try await other.todos.insert(TodoItem(id: id, text: "from B"))
        try await other.context.push()
        try await other.todos.delete(id: id)
        try await other.context.push()
    }
}

/// Takes the server's item as the outcome of any conflicting write.
private struct TakeServerCopyOnConflict: PushHandler {
    func execute(_ operation: PushOperation, send: PushOperation.Sender) async throws -> JSONObject? {
        do {
            return try await send(operation)
        } catch let error as HTTPStatusError where error.isConflict && error.serverItem != nil {
            return error.serverItem
        }
    }
}

/// Hands out increasing numbers to a scripted server's replies.
private final class VersionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 1

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
