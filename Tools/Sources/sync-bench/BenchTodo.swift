import Foundation
@_spi(SyncTablesTools) import SyncTables

/// The benchmark item: a to-do whose JSON is about 325 bytes.
struct BenchTodo: SyncItem, Equatable {
    var id: String
    var text: String
    var complete: Bool
    var priority: Int
    var category: String
    var notes: String
    var estimate: Double

    /// A deterministic item; a quarter of the texts start with "Buy" and half are incomplete.
    static func make(_ index: Int, runTag: String = "") -> BenchTodo {
        let verbs = ["Buy", "Call", "Write", "Fix"]
        let digits = String(index)
        let id = "bench\(runTag)-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
        return BenchTodo(
            id: id,
            text: "\(verbs[index % 4]) item number \(index) for the weekly plan",
            complete: (index / 4) % 2 == 1,
            priority: index % 5,
            category: ["home", "work", "errands", "garden"][(index / 3) % 4],
            notes: "Remember to check the list twice; bring the reusable bags, the loyalty card and the receipt "
                + "from last week for the return at the service desk. Ref \(index % 997).",
            estimate: Double(index % 120) / 4
        )
    }

    /// The JSON text the raw baselines store (the same object the store serializes).
    func jsonText() throws -> String {
        try JSONValueEncoder().encode(self).jsonString
    }

    /// The item as an untyped JSON object (for seeding the server).
    func jsonObject() throws -> JSONObject {
        try JSONValueEncoder().encode(self).objectValue ?? JSONObject()
    }
}
