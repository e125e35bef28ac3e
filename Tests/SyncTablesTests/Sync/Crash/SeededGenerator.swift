import Foundation

/// A small deterministic random generator (SplitMix64), so the crash tests' kill points are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    /// A generator seeded from `SYNCTABLES_CRASH_SEED` when set (to replay a failure), otherwise at
    /// random; the seed is printed with the test's name.
    static func announced(_ test: String) -> SeededGenerator {
        let text = ProcessInfo.processInfo.environment["SYNCTABLES_CRASH_SEED"]
        let seed = text.flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("\(test) seed \(seed) (replay with SYNCTABLES_CRASH_SEED=\(seed))")
        return SeededGenerator(seed: seed)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
