import Foundation

@_spi(SyncTablesTools) @testable import SyncTables

extension SeededGenerator {
    /// A generator seeded from `SYNCTABLES_CRASH_SEED` when set (to replay a failure), otherwise at
    /// random; the seed is printed with the test's name, so the crash tests' kill points are reproducible.
    static func announced(_ test: String) -> SeededGenerator {
        let text = ProcessInfo.processInfo.environment["SYNCTABLES_CRASH_SEED"]
        let seed = text.flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("\(test) seed \(seed) (replay with SYNCTABLES_CRASH_SEED=\(seed))")
        return SeededGenerator(seed: seed)
    }
}
