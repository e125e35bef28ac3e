import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// Keeps every log record, with its metadata, for a test to read.
final class CapturedLogs: Sendable {
    struct Record: Sendable {
        let message: String
        let metadata: Logger.Metadata
    }

    private let records = LockedState([Record]())

    var all: [Record] { records.withLock { $0 } }

    /// A logger that writes here.
    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in Handler(logs: self) }
        logger.logLevel = .debug
        return logger
    }

    fileprivate func append(_ record: Record) { records.withLock { $0.append(record) } }

    private struct Handler: LogHandler {
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            if let extra = event.metadata { merged.merge(extra) { $1 } }
            logs.append(Record(message: "\(event.message)", metadata: merged))
        }
    }
}
