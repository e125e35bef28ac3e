import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// Concurrent writers through one context lose nothing and number operations strictly.
@Suite("Concurrent writes")
struct ConcurrencyTests {
    @Test(arguments: ContextStoreKind.allCases)
    func eightWritersOfAThousandItemsEachEndWithEightThousandRowsAndOperations(
        kind: ContextStoreKind
    ) async throws {
        // 8,000 commits: `normal` spares an fsync per commit; ordering and atomicity are the same.
        let context = try await kind.makeContext(synchronous: .normal)
        let todos = try await context.table(ContextTodo.self)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<1_000 {
                        try await todos.insert(ContextTodo(id: "w\(writer)-\(index)", text: "\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }

        let operations = try await context.pendingOperations()
        #expect(try await todos.query().fetchCount() == 8_000)
        #expect(operations.count == 8_000)
        let sequences = operations.map(\.sequence)
        #expect(Set(sequences).count == 8_000)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 })
        #expect(Set(operations.map(\.itemId)).count == 8_000)
    }

    @Test(arguments: ContextStoreKind.allCases)
    func concurrentUpdatesOfOneItemCollapseIntoOneOperation(kind: ContextStoreKind) async throws {
        let context = try await kind.makeContext()
        let todos = try await context.table(ContextTodo.self)
        try await todos.insert(ContextTodo(id: "a", text: "start"))

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        try await todos.update(ContextTodo(id: "a", text: "\(writer)-\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }

        let operations = try await context.pendingOperations()
        #expect(operations.map(\.kind) == [.insert])
        #expect(operations.first?.version == 201)
    }
}
