import Testing

@_spi(SyncTablesTools) @testable import SyncTables

/// The end of a seeded interleaving: both clients finish pulling, then each must hold every row's latest
/// version (`truth`) and have seen no row version twice in one pull.
enum PullerConvergence {
    static func finishAndExpect(
        _ skipClient: inout SkipPuller, _ keysetClient: inout KeysetPuller, truth: [String: JSONObject],
        seed: UInt64, connection: ServerHarness.Connection
    ) async throws {
        for _ in 0..<2 {  // the second pass starts a fresh pull if the first ended mid-way
            try await skipClient.finish(connection)
            try await keysetClient.finish(connection)
        }
        for (name, problems, held) in [
            ("ge + $skip", skipClient.problems, skipClient.held), ("keyset", keysetClient.problems, keysetClient.held),
        ] {
            #expect(problems.isEmpty, "seed \(seed), \(name) client: \(problems)")
            let missed = truth.filter { id, row in held[id] != row.string("version") }.keys.sorted()
            #expect(missed.isEmpty, "seed \(seed), \(name) client missed \(missed)")
        }
    }
}
