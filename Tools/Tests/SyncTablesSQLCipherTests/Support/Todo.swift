#if SQLCipher
    import Foundation
    @_spi(SyncTablesTools) @testable import SyncTables

    /// The item the context-level tests store and sync.
    struct Todo: SyncItem, Equatable {
        var id: String
        var text: String
        var complete: Bool = false
        var version: String?
        var updatedAt: Date?
    }
#endif
