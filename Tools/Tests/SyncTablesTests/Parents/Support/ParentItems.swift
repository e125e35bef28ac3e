import Foundation
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A list: the parent of tasks.
struct TaskList: SyncItem, Equatable {
    var id: String
    var name: String
    var version: String?
}

/// A task: a child of its list (``SyncRules`` declare it), and the parent of its subtasks.
struct TaskItem: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var title: String
    var listId: String?
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) { $0.parent(.listId, TaskList.self) }
}

/// A subtask: a child of its task, a grandchild of the task's list.
struct Subtask: SyncItem, SyncRulesProvider, Equatable {
    var id: String
    var title: String
    var taskId: String
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) { $0.parent(.taskId, table: "taskitem") }
}

/// The server's declared tables: every reference is a foreign-key check, so a child that reaches the server
/// before its parent is refused (422) and the push that sent it fails.
let parentTables = """
    tables:
      TaskList:
        access: authenticated
        columns: { name: string }
      TaskItem:
        access: authenticated
        columns: { title: string, listId: string }
        references: { listId: TaskList }
      Subtask:
        access: authenticated
        columns: { title: string, taskId: string }
        references: { taskId: TaskItem }
    """

/// A device with the three tables open.
struct ParentDevice {
    let context: SyncContext
    let lists: SyncTable<TaskList>
    let tasks: SyncTable<TaskItem>
    let subtasks: SyncTable<Subtask>

    static func make(_ harness: SyncHarness) async throws -> ParentDevice {
        let device = try await harness.device()
        let context = device.context
        return ParentDevice(
            context: context, lists: try await context.table(TaskList.self),
            tasks: try await context.table(TaskItem.self), subtasks: try await context.table(Subtask.self))
    }

    /// The status of the operation of `itemId`.
    func status(of itemId: String) async throws -> PendingOperationStatus {
        try #require(try await context.pendingOperationStatuses().first { $0.operation.itemId == itemId })
    }
}

extension SyncHarness {
    /// Starts a server with ``parentTables`` declared.
    static func withParentTables(_ body: (SyncHarness) async throws -> Void) async throws {
        try await with(declaredTables: parentTables, body)
    }

    /// The writes since the last call, in the order they reached the server: `POST <table>/<id>` for inserts,
    /// `<METHOD> <table>/<id>` for the others.
    func takeWrites() async throws -> [String] {
        try await takeRequests().compactMap { request in
            guard request.path.hasPrefix("/tables/"), request.method != "GET" else { return nil }
            let table = request.path.dropFirst("/tables/".count)
            return request.method == "POST" ? "POST \(table)/\(request.bodyID ?? "?")" : "\(request.method) \(table)"
        }
    }

    /// Answers every insert into `table` with `status` until the faults are cleared.
    func refuseInserts(into table: String, status: Int, occurrence: Int? = nil) async throws {
        try await controls.addFault(
            FaultRule(
                method: "POST", path: "/tables/\(table)", occurrence: occurrence, action: .respond(status: status)))
    }
}
