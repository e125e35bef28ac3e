import Foundation
@_spi(SyncTablesTools) import SyncTables

/// The core-library suite: inserts, lookups and filtered reads on a file-backed store, each next to a raw
/// libsqlite3 baseline measured in the same run.
struct LocalSuite {
    struct Sizes {
        var singleInserts: Int
        var rows: Int
        var batchSize: Int
        var lookups: Int
        var limitedQueries: Int
        var unlimitedQueries: Int
        var rounds: Int
        var warmupRounds: Int
    }

    let sizes: Sizes
    let reporter: Reporter
    let storeKind: StoreKind
    private let suite = "local"
    /// Marks the encrypted store's figures, so a `--store both` run reads unambiguously.
    private var prefix: String { storeKind == .encrypted ? "encrypted " : "" }

    init(sizes: Sizes, reporter: Reporter, storeKind: StoreKind) {
        self.sizes = sizes
        self.reporter = reporter
        self.storeKind = storeKind
    }

    func run() async throws {
        if storeKind == .both {
            // One process, one engine: the encrypted figures are ratios to the plain store measured just before.
            try await LocalSuite(sizes: sizes, reporter: reporter, storeKind: .plain).run()
            try await LocalSuite(sizes: sizes, reporter: reporter, storeKind: .encrypted).run()
            return
        }
        if storeKind == .encrypted && !StoreFactory.encryptionAvailable {
            reporter.note(
                "--store encrypted needs a SQLCipher build (swift run -c release --traits SQLCipher sync-bench local "
                    + "--store encrypted); skipped")
            return
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let defaultSynchronous = SQLiteStore.Configuration().synchronous
        reporter.note(
            "SQLiteStore default synchronous = \(defaultSynchronous.rawValue) (WAL); "
                + "item JSON = \(try BenchTodo.make(0).jsonText().utf8.count) bytes; store = \(storeKind.rawValue)")
        if storeKind == .encrypted {
            reporter.note(
                "store = EncryptedSQLiteStore (raw key); baselines below are the plain SQLiteStore on the same "
                    + "SQLCipher engine, measured in this run")
        }

        for synchronous in [defaultSynchronous, defaultSynchronous == .full ? .normal : .full] {
            try await singleInserts(directory: directory, synchronous: synchronous)
            // Gone before what comes next, for the same reason as each round's files in `bulk`.
            let tag = synchronous.rawValue.lowercased()
            for name in ["single-\(tag)", "single-plain-\(tag)", "raw-single-\(tag)"] {
                directory.removeDatabase(directory.file("\(name).sqlite"))
            }
        }
        try await Task.sleep(for: .seconds(1))
        try await bulk(directory: directory, synchronous: defaultSynchronous)
        if storeKind == .encrypted {
            try await OpenCost(reporter: reporter, opens: 20).run(directory: directory)
        }
    }

    // MARK: Single inserts

    private func singleInserts(directory: TemporaryDirectory, synchronous: SQLiteStore.Configuration.Synchronous)
        async throws
    {
        let tag = synchronous.rawValue.lowercased()
        let todos = (0..<sizes.singleInserts).map { BenchTodo.make($0) }
        let encrypted = storeKind == .encrypted
        let measured = try await SingleInserter(
            store: StoreFactory.open(
                path: directory.file("single-\(tag).sqlite"), synchronous: synchronous, encrypted: encrypted))
        let baselineStore = try await SingleInserter(
            store: encrypted
                ? StoreFactory.open(
                    path: directory.file("single-plain-\(tag).sqlite"), synchronous: synchronous, encrypted: false)
                : nil)
        let raw =
            encrypted
            ? nil
            : try RawSQLite(path: directory.file("raw-single-\(tag).sqlite"), synchronous: synchronous.rawValue)
        let rows = try todos.map(RawRow.init)

        // Alternate blocks of store and baseline inserts: fsync latency on a shared VM drifts by an order of
        // magnitude within seconds, and interleaving exposes both sides to the same drift.
        var measuredSeconds = 0.0
        var baselineSeconds = 0.0
        var start = 0
        while start < todos.count {
            let end = min(todos.count, start + 100)
            measuredSeconds += try await Stopwatch.time { try await measured.insert(todos[start..<end]) }
            if let raw {
                baselineSeconds += try Stopwatch.time { try raw.insertEachInTransaction(Array(rows[start..<end])) }
            } else {
                baselineSeconds += try await Stopwatch.time { try await baselineStore.insert(todos[start..<end]) }
            }
            start = end
        }
        // The same inserts from a caller already on the store's thread: what the thread switches cost.
        let onExecutor = (0..<sizes.singleInserts).map { BenchTodo.make($0, runTag: "e") }
        let onExecutorSeconds = try await Stopwatch.time { try await measured.insertOnStoreExecutor(onExecutor[...]) }
        // Calls that keep the store's thread busy exactly as long as raw SQL's own insert took, awaited like
        // the inserts above: the ceiling of an awaited single insert here even at raw SQL's cost.
        var probe: (seconds: Double, workMicroseconds: Double)?
        if raw != nil, let storeActor = measured.storeActor {
            let work = baselineSeconds / Double(todos.count)
            let seconds = await StoreThreadProbe(sharingThreadOf: storeActor)
                .awaitCalls(todos.count, nanoseconds: UInt64(work * 1e9))
            probe = (seconds, work * 1e6)
        }
        try await measured.close()
        try await baselineStore.close()
        try raw?.close()
        reporter.report(
            BenchResult(
                suite: suite, name: "\(prefix)single insert (synchronous=\(synchronous.rawValue))", unit: "rows/s",
                value: Double(todos.count) / measuredSeconds, baseline: Double(todos.count) / baselineSeconds,
                count: todos.count, seconds: measuredSeconds, target: ">= 10000 rows/s",
                note: "each insert = one transaction (row + queued operation); baseline: "
                    + (encrypted ? "plain store" : "raw prepared INSERT, one transaction per row")
                    + "; blocks of 100 interleaved"))
        reporter.report(
            BenchResult(
                suite: suite,
                name: "\(prefix)single insert (synchronous=\(synchronous.rawValue)), caller on the store's executor",
                unit: "rows/s", value: Double(onExecutor.count) / onExecutorSeconds,
                baseline: Double(todos.count) / baselineSeconds, count: onExecutor.count, seconds: onExecutorSeconds,
                target: ">= 10000 rows/s",
                note: "same store, run under withTaskExecutorPreference(store.preferredTaskExecutor) after the "
                    + "interleaved run; baseline as above"))
        if let probe {
            let work = String(format: "%.0f", probe.workMicroseconds)
            reporter.report(
                BenchResult(
                    suite: suite,
                    name:
                        "\(prefix)awaited store-thread calls of raw SQL's insert time (synchronous=\(synchronous.rawValue))",
                    unit: "calls/s", value: Double(todos.count) / probe.seconds,
                    baseline: Double(todos.count) / baselineSeconds, count: todos.count, seconds: probe.seconds,
                    note: "each call only keeps the store's thread busy for \(work) µs (raw SQL's time per insert "
                        + "above), awaited from a pool task like the inserts: the most an awaited single insert can "
                        + "reach on this machine, however little the library adds; baseline: raw SQL"))
        }
    }

    // MARK: Batched inserts, lookups, filtered reads

    private func bulk(directory: TemporaryDirectory, synchronous: SQLiteStore.Configuration.Synchronous) async throws {
        let todos = (0..<sizes.rows).map { BenchTodo.make($0) }

        // Batched inserts in rounds, each into fresh files: the baseline and the store measured each alone,
        // with a pause between them so that a store's background checkpoint of its last batches has finished
        // before the other side starts. The figures are the medians over the rounds after the warm-up ones,
        // which both sides run alike (the process's first large allocations and first-touched pages land
        // there); the last round's stores serve the lookups and queries.
        var raw: RawSQLite?
        var plainContext: SyncContext?
        var plainTable: SyncTable<BenchTodo>?
        var plainExecutor: (any TaskExecutor)?
        var store: (any LocalStore)?
        var storePath: String?
        var context: SyncContext?
        var baselineRates: [Double] = []
        var layoutRates: [Double] = []
        var rates: [Double] = []
        let rawRows = try todos.map(RawRow.init)
        let layoutItems = try todos.map(RawStoreLayout.Item.init)
        let warmups = max(0, sizes.warmupRounds)
        let allRounds = warmups + max(1, sizes.rounds)
        for round in 0..<allRounds {
            try raw?.close()
            try await plainContext?.close()
            try await context?.close()
            // Each round's files go before the next: the kernel writing their pages back would otherwise slow
            // the later rounds down (measured: both sides lost about a quarter by the fifth round).
            if round > 0 {
                for name in ["bulk-plain", "raw-bulk", "raw-layout", "bulk"] {
                    directory.removeDatabase(directory.file("\(name)-\(round - 1).sqlite"))
                }
            }
            // The side that goes first alternates from round to round, so neither always runs beside the
            // kernel's write-back of the other's files.
            let baselineFirst = round.isMultiple(of: 2)
            func measureStore() async throws {
                let path = directory.file("bulk-\(round).sqlite")
                let measured = try await filledStore(
                    todos, path: path, synchronous: synchronous, encrypted: storeKind == .encrypted)
                if round >= warmups { rates.append(Double(todos.count) / measured.seconds) }
                (store, context, storePath) = (measured.store, measured.context, path)
            }
            if !baselineFirst {
                try await measureStore()
                try await Task.sleep(for: .seconds(1))
            }
            if storeKind == .encrypted {
                // The plain store on the same engine.
                let plain = try await filledStore(
                    todos, path: directory.file("bulk-plain-\(round).sqlite"), synchronous: synchronous,
                    encrypted: false)
                if round >= warmups { baselineRates.append(Double(todos.count) / plain.seconds) }
                plainContext = plain.context
                plainTable = plain.table
                plainExecutor = plain.store.preferredTaskExecutor
            } else {
                let opened = try RawSQLite(
                    path: directory.file("raw-bulk-\(round).sqlite"), synchronous: synchronous.rawValue)
                let seconds = try timeInBatches(rawRows.count) { try opened.insertInOneTransaction(rawRows[$0]) }
                if round >= warmups { baselineRates.append(Double(todos.count) / seconds) }
                raw = opened
                // The same batches as raw SQL of the store's own layout: separates the layout's cost from the
                // library's Swift work.
                let layout = try RawStoreLayout(
                    path: directory.file("raw-layout-\(round).sqlite"), synchronous: synchronous.rawValue,
                    cacheSizeKiB: SQLiteStore.Configuration().cacheSizeKiB)
                let layoutSeconds = try timeInBatches(layoutItems.count) {
                    try layout.insertInOneTransaction(layoutItems[$0])
                }
                if round >= warmups { layoutRates.append(Double(todos.count) / layoutSeconds) }
                try layout.close()
            }
            if baselineFirst {
                try await Task.sleep(for: .seconds(1))
                try await measureStore()
            }
            if round + 1 < allRounds { try await Task.sleep(for: .seconds(1)) }
        }
        guard let store, let context else { return }
        let table = try await context.table(BenchTodo.self)
        let ratios = zip(rates, baselineRates).map { $0 / $1 }
        let roundsNote =
            "median of \(rates.count) rounds after \(warmups) warm-up (fresh files, each side alone, the side that "
            + "goes first alternating); "
            + "per-round ratios "
            + ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ") + " (store "
            + rates.map { BenchResult.format($0) }.joined(separator: ", ") + "; baseline "
            + baselineRates.map { BenchResult.format($0) }.joined(separator: ", ") + " rows/s)"
        reporter.report(
            BenchResult(
                suite: suite, name: "\(prefix)batched insert (\(sizes.batchSize) per transaction)", unit: "rows/s",
                value: Self.median(rates), baseline: Self.median(baselineRates), count: todos.count,
                seconds: Double(todos.count) / Self.median(rates), target: ">= 50% of raw (ratio >= 0.50)",
                note: roundsNote))
        if !layoutRates.isEmpty {
            reporter.report(
                BenchResult(
                    suite: suite, name: "batched insert vs raw SQL of the store's layout", unit: "rows/s",
                    value: Self.median(rates), baseline: Self.median(layoutRates), count: todos.count,
                    seconds: Double(todos.count) / Self.median(rates),
                    note: "baseline: the row (JSON without long strings + 6 projected columns) and its queue row per "
                        + "item, prepared, pre-encoded, one row per statement, same page cache; the plain raw baseline "
                        + "above stores JSON + 2 columns"))
        }

        // Lookups of random ids (the same sequence for store and baseline).
        var generator = SeededGenerator(seed: 42)  // every run looks up the same ids
        let ids = (0..<sizes.lookups).map { _ in todos[Int(generator.next() % UInt64(todos.count))].id }
        // Each figure and its baseline run in alternating blocks of ids (see `interleaved`): measured one after
        // the other, the encrypted ÷ plain lookup ratio of one build ranged 0.57–1.18 over three runs.
        let storeExecutor = store.preferredTaskExecutor
        let baselineSide: (ArraySlice<String>) async throws -> Void
        let baselinePreferredSide: (ArraySlice<String>) async throws -> Void
        if let raw {
            baselineSide = { slice in try Self.lookUp(slice, in: raw) }
            baselinePreferredSide = baselineSide
        } else if let plainTable {
            baselineSide = { slice in try await Self.lookUp(slice, in: plainTable) }
            baselinePreferredSide = { slice in
                try await withTaskExecutorPreference(plainExecutor) { try await Self.lookUp(slice, in: plainTable) }
            }
        } else {
            baselineSide = { _ in }
            baselinePreferredSide = baselineSide
        }
        let (lookupSeconds, baselineLookup) = try await Self.interleaved(
            ids, { slice in try await Self.lookUp(slice, in: table) }, baselineSide)
        let (preferredSeconds, baselinePreferred) = try await Self.interleaved(
            ids,
            { slice in
                try await withTaskExecutorPreference(storeExecutor) { try await Self.lookUp(slice, in: table) }
            },
            baselinePreferredSide)
        let baselineName = raw == nil ? "plain store lookup" : "raw SELECT json WHERE id = ?"
        reporter.report(
            BenchResult(
                suite: suite, name: "\(prefix)lookup(id:) + decode, awaited from a pool task", unit: "lookups/s",
                value: Double(ids.count) / lookupSeconds, baseline: Double(ids.count) / baselineLookup,
                count: ids.count, seconds: lookupSeconds, target: ">= 50000/s",
                note: "baseline: \(baselineName); first pass over both (cold caches); blocks of \(Self.lookupBlock) "
                    + "interleaved"))
        reporter.report(
            BenchResult(
                suite: suite, name: "\(prefix)lookup(id:) + decode, caller on the store's preferredTaskExecutor",
                unit: "lookups/s", value: Double(ids.count) / preferredSeconds,
                baseline: Double(ids.count) / baselinePreferred, count: ids.count, seconds: preferredSeconds,
                target: ">= 50000/s",
                note: "baseline: " + (plainTable == nil ? baselineName : "plain store lookup, same executor preference")
                    + "; second pass; blocks of \(Self.lookupBlock) interleaved"))

        if let raw, let storePath {
            try await mappedLookups(path: storePath, synchronous: synchronous, ids: ids, raw: raw)
        }

        try await filtered(table: table, raw: raw, plainTable: plainTable)

        try await context.close()
        try await plainContext?.close()
        try raw?.close()
    }

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The seconds `insert` takes over `count` rows in batches of the configured size.
    private func timeInBatches(_ count: Int, _ insert: (Range<Int>) throws -> Void) throws -> Double {
        try Stopwatch.time {
            for start in stride(from: 0, to: count, by: sizes.batchSize) {
                try insert(start..<min(count, start + sizes.batchSize))
            }
        }
    }

    /// A new store at `path` filled with `todos` by `insert(contentsOf:)` in batches of the configured size,
    /// and the seconds that took.
    private func filledStore(
        _ todos: [BenchTodo], path: String, synchronous: SQLiteStore.Configuration.Synchronous, encrypted: Bool
    ) async throws -> (seconds: Double, store: any LocalStore, context: SyncContext, table: SyncTable<BenchTodo>) {
        let store = try StoreFactory.open(path: path, synchronous: synchronous, encrypted: encrypted)
        let context = try await SyncContext(store: store)
        let table = try await context.table(BenchTodo.self)
        let seconds = try await Stopwatch.time {
            for start in stride(from: 0, to: todos.count, by: sizes.batchSize) {
                try await table.insert(contentsOf: todos[start..<min(todos.count, start + sizes.batchSize)])
            }
        }
        return (seconds, store, context, table)
    }

    /// The lookups again through a second store on the same file that reads it through a memory map
    /// (``SQLiteStore/Configuration/memoryMapBytes``, off by default), interleaved with the raw baseline's.
    private func mappedLookups(
        path: String, synchronous: SQLiteStore.Configuration.Synchronous, ids: [String], raw: RawSQLite
    ) async throws {
        let mapBytes = 1 << 30
        let mapped = try SQLiteStore(
            path: path, configuration: .init(synchronous: synchronous, memoryMapBytes: mapBytes))
        let context = try await SyncContext(store: mapped)
        let table = try await context.table(BenchTodo.self)
        let (seconds, baseline) = try await Self.interleaved(
            ids, { slice in try await Self.lookUp(slice, in: table) },
            { slice in try Self.lookUp(slice, in: raw) })
        try await context.close()
        reporter.report(
            BenchResult(
                suite: suite, name: "lookup(id:) + decode, awaited, store opened with memoryMapBytes = 1 GiB",
                unit: "lookups/s", value: Double(ids.count) / seconds, baseline: Double(ids.count) / baseline,
                count: ids.count, seconds: seconds, target: ">= 50000/s",
                note: "a second SQLiteStore on the same file, fresh connections, same ids; baseline: raw SELECT "
                    + "json WHERE id = ? (no memory map); blocks of \(Self.lookupBlock) interleaved"))
    }

    /// Ids per block when two sides' lookups alternate.
    static let lookupBlock = 500

    /// The seconds each side takes over `ids`, run in alternating blocks so that both meet the same machine:
    /// a shared VM's speed drifts within seconds. The side that goes first alternates too.
    static func interleaved(
        _ ids: [String], _ first: (ArraySlice<String>) async throws -> Void,
        _ second: (ArraySlice<String>) async throws -> Void
    ) async throws -> (first: Double, second: Double) {
        var seconds = (first: 0.0, second: 0.0)
        for (block, start) in stride(from: 0, to: ids.count, by: lookupBlock).enumerated() {
            let slice = ids[start..<min(ids.count, start + lookupBlock)]
            if block.isMultiple(of: 2) {
                seconds.first += try await Stopwatch.time { try await first(slice) }
                seconds.second += try await Stopwatch.time { try await second(slice) }
            } else {
                seconds.second += try await Stopwatch.time { try await second(slice) }
                seconds.first += try await Stopwatch.time { try await first(slice) }
            }
        }
        return seconds
    }

    /// Looks every id up with raw SQL; an id that is not found is an error.
    static func lookUp(_ ids: ArraySlice<String>, in raw: RawSQLite) throws {
        for id in ids where try raw.lookup(id) == nil { throw BenchError.missing(id) }
    }

    /// Looks every id up in `table`; an id that is not found is an error.
    static func lookUp(_ ids: ArraySlice<String>, in table: SyncTable<BenchTodo>) async throws {
        for id in ids {
            guard try await table.lookup(id: id) != nil else { throw BenchError.missing(id) }
        }
    }

    private func filtered(table: SyncTable<BenchTodo>, raw: RawSQLite?, plainTable: SyncTable<BenchTodo>?)
        async throws
    {
        let filter = Column("complete") == false && Column("text").hasPrefix("Buy")
        for limit in [100, nil] as [Int?] {
            let repeats = limit == nil ? sizes.unlimitedQueries : sizes.limitedQueries
            var query = table.query().filter(filter)
            if let limit { query = query.limit(limit) }
            var rows = 0
            let seconds = try await Stopwatch.time {
                for _ in 0..<repeats { rows += try await query.fetchAll().count }
            }
            var baselineRows = 0
            let baselineSeconds: Double
            if let raw {
                baselineSeconds = try Stopwatch.time {
                    for _ in 0..<repeats { baselineRows += try raw.filtered(limit: limit).count }
                }
            } else if let plainTable {
                var plainQuery = plainTable.query().filter(filter)
                if let limit { plainQuery = plainQuery.limit(limit) }
                baselineSeconds = try await Stopwatch.time {
                    for _ in 0..<repeats { baselineRows += try await plainQuery.fetchAll().count }
                }
            } else {
                baselineSeconds = .nan
            }
            let label = limit.map { "limit \($0)" } ?? "no limit"
            reporter.report(
                BenchResult(
                    suite: suite,
                    name:
                        "\(prefix)fetchAll(complete == false && text.hasPrefix(\"Buy\"), \(label)) over \(sizes.rows) rows",
                    unit: "queries/s", value: Double(repeats) / seconds,
                    baseline: Double(repeats) / baselineSeconds, count: repeats, seconds: seconds,
                    note: "\(rows / max(1, repeats)) rows each (baseline \(baselineRows / max(1, repeats))); "
                        + "\(BenchResult.format(Double(rows) / seconds)) decoded rows/s; "
                        + (raw == nil ? "baseline: plain store" : "baseline: raw SQL reading the JSON text")))
        }
    }
}

/// One store's context and table for single inserts; with no store it does nothing.
struct SingleInserter {
    private let context: SyncContext?
    private let table: SyncTable<BenchTodo>?
    private let executor: (any TaskExecutor)?

    init(store: (any LocalStore)?) async throws {
        guard let store else {
            (context, table, executor) = (nil, nil, nil)
            return
        }
        executor = store.preferredTaskExecutor
        let context = try await SyncContext(store: store)
        self.context = context
        table = try await context.table(BenchTodo.self)
    }

    /// Inserts each item in its own transaction.
    func insert(_ todos: ArraySlice<BenchTodo>) async throws {
        guard let table else { return }
        for todo in todos { try await table.insert(todo) }
    }

    /// The store as an actor, whose thread a ``StoreThreadProbe`` can share.
    var storeActor: (any Actor)? {
        context?.store as? any Actor
    }

    /// Inserts each item in its own transaction, the caller running on the store's executor.
    func insertOnStoreExecutor(_ todos: ArraySlice<BenchTodo>) async throws {
        try await withTaskExecutorPreference(executor) { try await insert(todos) }
    }

    func close() async throws {
        try await context?.close()
    }
}

/// Failures of the benchmark itself.
enum BenchError: Error, CustomStringConvertible {
    case missing(String)
    case unexpected(String)

    var description: String {
        switch self {
        case .missing(let id): "item \(id) was not found"
        case .unexpected(let message): message
        }
    }
}
