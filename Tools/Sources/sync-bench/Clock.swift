import Foundation
import Histogram

/// Wall-clock timing helpers.
enum Stopwatch {
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    static func seconds(since start: UInt64) -> Double {
        Double(now() - start) / 1e9
    }

    /// Runs `body` once and returns the elapsed seconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return seconds(since: start)
    }

    /// Runs `body` once and returns the elapsed seconds.
    static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let start = now()
        try await body()
        return seconds(since: start)
    }
}

/// Per-request latencies in microseconds.
struct LatencyRecorder {
    private var histogram = Histogram<UInt64>(
        highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)

    mutating func record(nanoseconds: UInt64) {
        _ = histogram.record(max(1, nanoseconds / 1000))
    }

    /// Adds another recorder's latencies (clients measured concurrently).
    mutating func merge(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
    }

    var p50: Double { Double(histogram.valueAtPercentile(50)) }
    var p99: Double { Double(histogram.valueAtPercentile(99)) }
}

/// The process's memory figures from `/proc/self/status` (Linux), in MiB.
enum ProcessMemory {
    static func peakResidentMiB() -> Double? { value(of: "VmHWM") }
    static func residentMiB() -> Double? { value(of: "VmRSS") }

    private static func value(of key: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            // "VmHWM:\t   35840 kB": the figure is the first field after the colon, tabs or spaces around it.
            let fields = line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
            let number = fields.first.flatMap { Double($0) }
            return number.map { $0 / 1024 }
        }
        return nil
    }
}

/// A temporary directory removed when the suite ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Removes a database file with its log and shared-memory files, if they exist.
    func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
