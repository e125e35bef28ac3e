import Foundation
import SyncTablesServer
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A child's operation is not sent while its parent's insert is still queued, against a real `sync-server`
/// whose declared tables check every reference: a child that arrived first would be refused with 422.
@Suite("Parents before children")
struct ParentsBeforeChildrenTests {
    /// One request at a time, several at once, and batches.
    static let pushModes: [PushOptions] = [
        PushOptions(batchSize: 1), PushOptions(batchSize: 1, maxConcurrentRequests: 8), PushOptions(batchSize: 20),
    ]

    @Test func childrenWaitWhileTheirParentsInsertFailsAndGoRightAfterItOnceItSucceeds() async throws {
        try await SyncHarness.withParentTables { harness in
            // Given a list whose insert the server refuses twice (the second and third list inserts it gets),
            // its two tasks, and unrelated items
            let device = try await ParentDevice.make(harness)
            try await harness.refuseInserts(into: "TaskList", status: 500, occurrence: 2)
            try await harness.refuseInserts(into: "TaskList", status: 500, occurrence: 3)
            try await device.lists.insert(TaskList(id: "l0", name: "work"))
            try await device.lists.insert(TaskList(id: "l1", name: "groceries"))
            try await device.tasks.insert(TaskItem(id: "t1", title: "milk", listId: "l1"))
            try await device.tasks.insert(TaskItem(id: "t2", title: "eggs", listId: "l1"))
            try await device.tasks.insert(TaskItem(id: "free", title: "no list"))

            // When a push fails the list's insert
            let failure = try await requirePushFailure { try await device.context.push() }

            // Then its tasks were not sent, say why, and everything else went
            #expect(failure.errors.map(\.status) == [500])
            #expect(try await harness.takeWrites() == ["POST TaskList/l0", "POST TaskList/l1", "POST TaskItem/free"])
            for id in ["t1", "t2"] {
                let hold = try #require(try await device.status(of: id).parentHold)
                #expect(hold.table == "TaskList" && hold.itemId == "l1" && hold.property == "listId")
                #expect(hold.description == "waiting for the insert of TaskList 'l1'")
            }
            #expect(try await device.status(of: "l1").parentHold == nil)
            let overview = try await device.context.overview()
            #expect(overview.tables.first { $0.name == "TaskItem" }?.heldOperations == 2)

            // And when the next push fails it again, then one succeeds, the tasks follow their list
            _ = try await requirePushFailure { try await device.context.push() }
            #expect(try await harness.takeWrites() == ["POST TaskList/l1"])
            try await device.context.push()
            #expect(try await harness.takeWrites() == ["POST TaskList/l1", "POST TaskItem/t1", "POST TaskItem/t2"])
            #expect(try await device.context.pendingOperationCount() == 0)

            // And the history said once per task that it waited, however many pushes held it
            let held = try await device.context.history().filter { $0.outcome == .held }
            #expect(held.map(\.itemId).sorted() == ["t1", "t2"])
            #expect(held.allSatisfy { $0.message == "waiting for the insert of TaskList 'l1'" })
        }
    }

    @Test(arguments: pushModes)
    func aChildQueuedBeforeItsParentGoesRightAfterTheParentInTheSamePush(options: PushOptions) async throws {
        try await SyncHarness.withParentTables { harness in
            // Given a task queued before the list it belongs to
            let device = try await ParentDevice.make(harness)
            try await device.tasks.insert(TaskItem(id: "t1", title: "milk", listId: "l1"))
            try await device.tasks.insert(TaskItem(id: "free", title: "no list"))
            try await device.lists.insert(TaskList(id: "l1", name: "groceries"))

            // When one push runs
            try await device.context.push(options: options)

            // Then the list went first and the task right after it
            let writes = try await harness.takeWrites()
            #expect(Set(writes) == ["POST TaskItem/free", "POST TaskList/l1", "POST TaskItem/t1"])
            #expect(writes.firstIndex(of: "POST TaskList/l1")! < writes.firstIndex(of: "POST TaskItem/t1")!)
            #expect(try await device.context.pendingOperationCount() == 0)
        }
    }

    @Test(arguments: pushModes)
    func noChildReachesTheServerBeforeItsParentWhateverThePushMode(options: PushOptions) async throws {
        try await SyncHarness.withParentTables { harness in
            // Given lists whose inserts take a while, each with tasks and subtasks, some queued before their
            // parent, all interleaved
            let device = try await ParentDevice.make(harness)
            try await harness.controls.addFault(
                FaultRule(method: "POST", path: "/tables/TaskList", occurrence: nil, action: .delay(milliseconds: 20)))
            for list in 0..<12 {
                try await device.tasks.insert(TaskItem(id: "early\(list)", title: "first", listId: "l\(list)"))
                try await device.lists.insert(TaskList(id: "l\(list)", name: "list \(list)"))
                for task in 0..<4 {
                    let id = "t\(list).\(task)"
                    try await device.tasks.insert(TaskItem(id: id, title: "task", listId: "l\(list)"))
                    try await device.subtasks.insert(Subtask(id: "s\(list).\(task)", title: "sub", taskId: id))
                }
            }

            // When one push sends them
            let summary = try await device.context.push(options: options)

            // Then the server refused no child (its reference check passed every time), and every parent's
            // insert reached it before its children's
            #expect(summary.pushedOperations == 12 * (2 + 4 * 2))
            #expect(try await device.context.pendingOperationCount() == 0)
            let requests = try await harness.takeRequests(includingExtensions: true)
            var arrival: [String: Int] = [:]
            for (index, request) in requests.enumerated() { if let id = request.bodyID { arrival[id] = index } }
            for list in 0..<12 {
                let parent = try #require(arrival["l\(list)"])
                #expect(parent < (arrival["early\(list)"] ?? -1))
                for task in 0..<4 {
                    #expect(parent < (arrival["t\(list).\(task)"] ?? -1))
                    #expect((arrival["t\(list).\(task)"] ?? .max) < (arrival["s\(list).\(task)"] ?? -1))
                }
            }
            // A batch runs its operations in order on the server, which would pass a child right after its
            // parent: no batch may hold both.
            var batch = 0
            var batchOf: [String: Int] = [:]
            for request in requests {
                if request.path == "/sync/batch" {
                    batch += 1
                } else if let id = request.bodyID {
                    batchOf[id] = batch
                }
            }
            if options.batchSize != 1 {
                #expect(batch > 1, "the push sent no batches")
                for list in 0..<12 {
                    let children = ["early\(list)"] + (0..<4).map { "t\(list).\($0)" }
                    #expect(children.allSatisfy { batchOf[$0] != batchOf["l\(list)"] }, "list \(list)")
                }
            }
        }
    }

    @Test func aChildsDeleteDoesNotWaitForItsParent() async throws {
        try await SyncHarness.withParentTables { harness in
            // Given a task on the server, and locally a new list it is moved to, whose insert fails
            let device = try await ParentDevice.make(harness)
            try await device.lists.insert(TaskList(id: "l0", name: "old"))
            try await device.tasks.insert(TaskItem(id: "t1", title: "milk", listId: "l0"))
            try await device.context.push()
            try await harness.refuseInserts(into: "TaskList", status: 500)
            try await device.lists.insert(TaskList(id: "l1", name: "new"))
            try await device.tasks.update(TaskItem(id: "t1", title: "milk", listId: "l1"))
            #expect(try await device.status(of: "t1").parentHold?.itemId == "l1")
            _ = try await harness.takeWrites()

            // When the task is deleted and a push runs
            try await device.tasks.delete(id: "t1")
            _ = try await requirePushFailure { try await device.context.push() }

            // Then the delete went: removing a child breaks no reference
            #expect(try await harness.takeWrites() == ["POST TaskList/l1", "DELETE TaskItem/t1"])
            #expect(try await device.context.pendingOperations().map(\.itemId) == ["l1"])
        }
    }

    @Test func anEngineHoldsChildrenWhileTheirParentWaitsOutABackoffAndSendsThemWithIt() async throws {
        try await SyncHarness.withParentTables { harness in
            // Given a list whose insert fails transiently, and its task
            let device = try await ParentDevice.make(harness)
            let (engine, clock) = Self.engine(for: device)
            try await harness.refuseInserts(into: "TaskList", status: 503)
            try await device.lists.insert(TaskList(id: "l1", name: "groceries"))
            try await device.tasks.insert(TaskItem(id: "t1", title: "milk", listId: "l1"))

            // When a cycle fails the list, and another runs while it waits out its backoff
            await engine.syncNow()
            await engine.syncNow()

            // Then the task waited both times, saying for what
            #expect(try await harness.takeWrites() == ["POST TaskList/l1"])
            #expect(try await device.status(of: "l1").nextAttemptAt != nil)
            #expect(try await device.status(of: "t1").parentHold?.operationId == device.status(of: "l1").id)

            // And once the backoff is over and the server takes the list, the task goes in the same cycle
            try await harness.controls.clearFaults()
            clock.advance(by: .seconds(3_600))
            #expect(await engine.syncNow().pushedOperations == 2)
            #expect(try await harness.takeWrites() == ["POST TaskList/l1", "POST TaskItem/t1"])
        }
    }

    @Test func aDeadParentListsItsChildrenAndRetryingItReleasesThem() async throws {
        try await SyncHarness.withParentTables { harness in
            // Given a list the server refuses for good, its two tasks and a subtask
            let device = try await ParentDevice.make(harness)
            let (engine, _) = Self.engine(for: device)
            try await harness.refuseInserts(into: "TaskList", status: 400)
            try await device.lists.insert(TaskList(id: "l1", name: "groceries"))
            try await device.tasks.insert(TaskItem(id: "t1", title: "milk", listId: "l1"))
            try await device.tasks.insert(TaskItem(id: "t2", title: "eggs", listId: "l1"))
            try await device.subtasks.insert(Subtask(id: "s1", title: "organic", taskId: "t1"))

            // When a cycle dead-letters the list
            await engine.syncNow()

            // Then the dead list shows the tasks it holds, and they say they wait for a dead parent
            let dead = try #require(try await device.context.deadOperations().first)
            #expect(dead.itemId == "l1")
            #expect(dead.heldChildren.map(\.itemId) == ["t1", "t2"])
            let hold = try #require(try await device.status(of: "t1").parentHold)
            #expect(hold.parentState == .dead)
            #expect(hold.description == "waiting for the insert of TaskList 'l1', which is dead")
            #expect(try await device.status(of: "s1").parentHold?.itemId == "t1")
            #expect(try await harness.takeWrites() == ["POST TaskList/l1"])

            // And when the server takes lists again and the list is retried, the next cycle sends them all
            try await harness.controls.clearFaults()
            #expect(try await device.context.retryDeadOperations() == 1)
            #expect(await engine.syncNow().pushedOperations == 4)
            #expect(
                try await harness.takeWrites() == [
                    "POST TaskList/l1", "POST TaskItem/t1", "POST TaskItem/t2", "POST Subtask/s1",
                ])
        }
    }

    @Test func discardingADeadParentRefusesToOrphanItsChildrenUnlessTheyAreDiscardedWithIt() async throws {
        try await SyncHarness.withParentTables { harness in
            // Given a dead list holding a task, which holds a subtask, and an unrelated dead list
            let device = try await ParentDevice.make(harness)
            let (engine, _) = Self.engine(for: device)
            try await harness.refuseInserts(into: "TaskList", status: 400)
            try await device.lists.insert(TaskList(id: "l1", name: "groceries"))
            try await device.tasks.insert(TaskItem(id: "t1", title: "milk", listId: "l1"))
            try await device.subtasks.insert(Subtask(id: "s1", title: "organic", taskId: "t1"))
            try await device.lists.insert(TaskList(id: "lone", name: "empty"))
            await engine.syncNow()
            #expect(try await device.context.deadOperationCount() == 2)

            // When every dead operation is discarded without its children
            let error = await #expect(throws: SyncError.self) { try await device.context.discardDeadOperations() }

            // Then nothing is discarded, and the error names the parent and the child it would orphan
            guard case .orphanedChildren(let parent, let children)? = error else {
                Issue.record("expected orphanedChildren, got \(String(describing: error))")
                return
            }
            #expect(parent.itemId == "l1" && children.map(\.itemId) == ["t1"])
            #expect(error?.description.contains("includingChildren: true") == true)
            #expect(try await device.context.pendingOperationCount() == 4)

            // And with its children the list, its task and the task's subtask go, local rows included
            #expect(try await device.context.discardDeadOperations(includingChildren: true) == 4)
            #expect(try await device.context.pendingOperationCount() == 0)
            #expect(try await device.tasks.lookup(id: "t1") == nil)
            #expect(try await device.subtasks.lookup(id: "s1") == nil)
            let discarded = try await device.context.history().filter { $0.outcome == .discarded }
            #expect(Set(discarded.map(\.itemId)) == ["l1", "t1", "s1", "lone"])
        }
    }

    /// An engine on a manual clock that syncs the device's three tables; its retries start at 10 s.
    private static func engine(for device: ParentDevice) -> (SyncEngine, ManualSyncClock) {
        let clock = ManualSyncClock()
        let engine = SyncEngine(
            context: device.context,
            definitions: [
                SyncDefinition(device.lists, queryId: "lists"), SyncDefinition(device.tasks, queryId: "tasks"),
            ],
            configuration: SyncEngineConfiguration(
                retry: RetryPolicy(baseDelay: .seconds(10), maximumDelay: .seconds(600), maxAttempts: 5)),
            clock: clock, random: { 0.5 }, logger: EngineDevice.quietLogger)
        return (engine, clock)
    }
}
