import Foundation

/// The seeds and length of a seeded randomized test, from the environment: `<prefix>_SEED` replays one seed,
/// `<prefix>_SEEDS` runs that many random ones (default 1) and `<prefix>_STEPS` sets the steps of each.
struct SeededRuns {
    let variable: String
    let seeds: [UInt64]
    let steps: Int

    init(_ prefix: String, defaultSteps: Int) {
        let environment = ProcessInfo.processInfo.environment
        variable = "\(prefix)_SEED"
        steps = environment["\(prefix)_STEPS"].flatMap(Int.init) ?? defaultSteps
        if let replay = environment[variable].flatMap(UInt64.init) {
            seeds = [replay]
        } else {
            let count = environment["\(prefix)_SEEDS"].flatMap(Int.init) ?? 1
            seeds = (0..<count).map { _ in UInt64.random(in: 1...UInt64.max) }
        }
    }

    /// Runs `body` once per seed, printing each seed first with the way to replay it.
    func run(_ test: String, _ body: (_ seed: UInt64, _ steps: Int) async throws -> Void) async throws {
        for seed in seeds {
            print("\(test) seed \(seed) (replay with \(variable)=\(seed))")
            try await body(seed, steps)
        }
    }
}
