import Foundation
import Logging
import SyncTablesServerTesting
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// A folder: the parent of notes.
struct Folder: SyncItem {
    var id: String
    var name: String
}

/// A note: a child of its folder, so it is not pushed while the folder's insert is queued.
struct FolderNote: SyncItem, SyncRulesProvider {
    var id: String
    var text: String
    var folderId: String

    static let syncRules = SyncRules(keys: CodingKeys.self) { $0.parent(.folderId, Folder.self) }
}

extension CLIHarness {
    /// A store whose folder `f1` the engine dead-lettered (the server refused its insert for good), holding the
    /// notes `n1` and `n2`, beside a note of a folder already on the server.
    func makeDeadParentWithChildren(in path: String) async throws {
        try await controls.addFault(
            FaultRule(method: "POST", path: "/tables/Folder", occurrence: nil, action: .respond(status: 400)))
        try await withContext(path) { context in
            let folders = try await context.table(Folder.self)
            let notes = try await context.table(FolderNote.self)
            try await folders.insert(Folder(id: "f1", name: "trip"))
            try await notes.insert(FolderNote(id: "n1", text: "tickets", folderId: "f1"))
            try await notes.insert(FolderNote(id: "n2", text: "hotel", folderId: "f1"))
            var quiet = Logger(label: "SyncTables.SyncEngine.tests")
            quiet.logLevel = .error
            let engine = SyncEngine(context: context, definitions: [], clock: ManualSyncClock(), logger: quiet)
            await engine.syncNow()
            #expect(try await context.deadOperations().map(\.itemId) == ["f1"])
        }
    }
}
