import Logging
@_spi(SyncTablesTools) import SyncTablesCore

/// Every line a logger wrote, with its metadata, for tests that read what the server logs.
final class LogLines: Sendable {
    private let lines = LockedState<[String]>([])

    /// The lines so far, each as `message key=value …`.
    var all: [String] { lines.withLock { $0 } }

    /// A handler that records into these lines.
    func handler() -> some LogHandler {
        Handler(lines: self)
    }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let pairs = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append(([event.message.description] + pairs).joined(separator: " "))
        }
    }
}
