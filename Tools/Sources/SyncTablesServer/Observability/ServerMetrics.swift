import HTTPTypes
import Prometheus

/// The server's Prometheus metrics, in a registry of its own (never the process-wide `MetricsSystem`, so
/// several servers in one process count apart):
///
/// - `sync_server_requests_total{method, status}`: requests answered, by method and status class (`2xx`…);
/// - `sync_server_request_duration_seconds{method}`: how long answering took;
/// - `sync_server_auth_failures_total{reason}`: requests whose credentials proved no caller, by reason;
/// - `sync_server_rate_limited_total`: requests refused with 429;
/// - `sync_server_change_feeds_open`: change feeds open now;
/// - `sync_server_change_events_total{event}`: change feed events sent, by type (`ready`, `change`, `reset`,
///   `heartbeat`);
/// - `sync_server_change_feeds_dropped_total`: change feeds dropped because their reader fell behind.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let rateLimited: Counter
    private let openChangeFeeds: Gauge
    private let droppedChangeFeeds: Counter

    /// Latency buckets from 1 ms to 10 s.
    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10),
    ]

    init() {
        rateLimited = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sync_server", metricName: "rate_limited", unitName: "total",
                helpText: "Requests refused with 429 by the per-caller rate limit."))
        openChangeFeeds = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "sync_server", metricName: "change_feeds", unitName: "open",
                helpText: "Change feeds (GET /sync/changes) open now."))
        droppedChangeFeeds = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sync_server", metricName: "change_feeds_dropped", unitName: "total",
                helpText: "Change feeds dropped because their reader fell behind."))
    }

    /// Counts one answered request and its duration.
    func recordRequest(method: HTTPRequest.Method, status: HTTPResponse.Status, duration: Duration) {
        let method = Self.label(for: method)
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sync_server", metricName: "requests", unitName: "total",
                helpText: "Requests answered, by method and status class."),
            labels: [("method", method), ("status", "\(status.code / 100)xx")]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "sync_server", metricName: "request_duration", unitName: "seconds",
                helpText: "How long the server took to answer a request."),
            labels: [("method", method)], buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// Counts one request whose credentials proved no caller.
    func recordAuthenticationFailure(_ reason: AuthenticationFailure) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sync_server", metricName: "auth_failures", unitName: "total",
                helpText: "Requests answered 401, by reason."),
            labels: [("reason", reason.rawValue)]
        ).increment()
    }

    /// Counts one request refused by the rate limit.
    func recordRateLimited() {
        rateLimited.increment()
    }

    /// Sets how many change feeds are open.
    func recordOpenChangeFeeds(_ count: Int) {
        openChangeFeeds.set(Double(count))
    }

    /// Counts change feeds dropped for falling behind.
    func recordDroppedChangeFeeds(_ count: Int) {
        droppedChangeFeeds.increment(by: Int64(count))
    }

    /// Counts the events a change feed sent.
    func recordChangeEventsSent(_ events: [ServerSentEvent]) {
        var counts: [String: Int64] = [:]
        for event in events { counts[event.name, default: 0] += 1 }
        for (name, count) in counts {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "sync_server", metricName: "change_events", unitName: "total",
                    helpText: "Change feed events sent, by type."),
                labels: [("event", name)]
            ).increment(by: count)
        }
    }

    /// The metrics in the Prometheus text format.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// A bounded label: the standard methods by name, anything else as `other`.
    private static func label(for method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .head, .post, .put, .patch, .delete, .options: method.rawValue
        default: "other"
        }
    }
}
