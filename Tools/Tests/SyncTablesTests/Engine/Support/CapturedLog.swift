import Foundation
import Logging

/// Log lines captured by a test: a logger whose handler keeps every message with its level and metadata.
final class CapturedLog: @unchecked Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private var captured: [Line] = []

    var lines: [Line] { lock.withLock { captured } }

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ line: Line) {
        lock.withLock { captured.append(line) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var all = metadata
            for (key, value) in event.metadata ?? [:] { all[key] = value }
            log.append(
                Line(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}
