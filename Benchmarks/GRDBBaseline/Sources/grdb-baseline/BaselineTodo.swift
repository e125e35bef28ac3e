import Foundation
import GRDB
import SyncTables

/// The item both libraries store: eight properties, about 350 bytes as JSON.
struct BaselineTodo: SyncItem, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "BaselineTodo"

    var id: String
    var text: String
    var done: Bool
    var priority: Int
    var category: String
    var notes: String
    var estimate: Double
    var created: Date

    /// A deterministic item: half are not done, two in five have priority 3 or 4.
    static func make(_ index: Int) -> BaselineTodo {
        let digits = String(index)
        return BaselineTodo(
            id: "todo-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits,
            text: "\(["Buy", "Call", "Write", "Fix"][index % 4]) item number \(index) for the weekly plan",
            done: (index / 4) % 2 == 1,
            priority: index % 5,
            category: ["home", "work", "errands", "garden"][(index / 3) % 4],
            notes: "Remember to check the list twice; bring the reusable bags, the loyalty card and the receipt "
                + "from last week for the return at the service desk. Ref \(index % 997).",
            estimate: Double(index % 120) / 4,
            created: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 7.5)
        )
    }
}
