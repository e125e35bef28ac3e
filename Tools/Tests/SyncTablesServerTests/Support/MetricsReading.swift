/// Reads counters out of a Prometheus text exposition (`GET /metrics`).
struct MetricsReading {
    let text: String

    /// The sum of every sample of `name` whose labels include all of `labels` (`["reason": "expired"]`).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        var total = 0.0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard line.hasPrefix(name + "{") || line.hasPrefix(name + " "),
                let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
            else { continue }
            let head = line[..<space]
            if labels.allSatisfy({ head.contains("\($0.key)=\"\($0.value)\"") }) { total += value }
        }
        return total
    }
}

extension ServerHarness {
    /// The server's metrics now.
    func metrics(headers: [String: String] = [:]) async throws -> MetricsReading {
        let response = try await send(.get, "/metrics", headers: headers, apiVersion: nil)
        return MetricsReading(text: response.text)
    }
}
