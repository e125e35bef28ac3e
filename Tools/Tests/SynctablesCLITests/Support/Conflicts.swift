import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

extension CLIHarness {
    /// Leaves the store at `path` with one pushed-and-refused update of `todo/a` (HTTP 412): another
    /// device changed the item on the server first. Returns the server's text for the item.
    @discardableResult
    func makeConflict(in path: String) async throws -> String {
        try await seed("todo", [["id": "a", "text": "original"]])
        try await withContext(path) { context in
            let todo = try await context.table(JSONObject.self, named: "todo")
            try await todo.pull()
            var item = try #require(try await todo.lookup(id: "a"))
            item["text"] = "mine"
            try await todo.update(item)
        }
        try await withContext(newStorePath("other")) { other in
            let todo = try await other.table(JSONObject.self, named: "todo")
            try await todo.pull()
            var item = try #require(try await todo.lookup(id: "a"))
            item["text"] = "theirs"
            try await todo.update(item)
            try await other.push()
        }
        try await withContext(path) { context in
            await #expect {
                try await context.push()
            } throws: { error in
                guard case SyncError.pushFailed(let failure) = error else { return false }
                return failure.status == .completedWithErrors
            }
        }
        return "theirs"
    }
}
