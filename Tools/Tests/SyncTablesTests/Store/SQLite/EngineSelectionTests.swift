import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTablesSQLite

/// The build links exactly one engine, and it is the one the traits asked for.
@Test func buildRunsOnTheEngineItsTraitChose() {
    if SQLiteEngine.isSQLCipher {
        #expect(SQLiteEngine.version == "3.15.2")
    } else {
        #expect(SQLiteEngine.version.compare("3.15.2", options: .numeric) == .orderedDescending)
    }
}
