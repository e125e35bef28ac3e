import Foundation
@_spi(SyncTablesTools) import SyncTables

/// Paged reads of a large table ordered by `updatedAt`: the p50 latency of its first pages and of its last
/// pages, through the server's `$skiptoken` next links (a keyset after the previous page's last row), with
/// `$skip` (SQL `OFFSET`), and as the v2 clients' incremental pull asks (`updatedAt ge` the page's first
/// stamp; see the *Wire protocol* article of SyncTables, section *Incremental pull*), interleaved round by
/// round so all meet the same machine.
struct DeepPaging {
    let baseURL: URL
    let client: SyncClient
    let table: String
    let rows: Int
    let pageSize: Int
    let pagesPerEnd = 10

    /// The latency samples: keyset, offset and `updatedAt ge`, first and last pages.
    struct Latencies {
        var keysetFirst = LatencyRecorder()
        var keysetLast = LatencyRecorder()
        var offsetFirst = LatencyRecorder()
        var offsetLast = LatencyRecorder()
        var sinceFirst = LatencyRecorder()
        var sinceLast = LatencyRecorder()
    }

    /// Measures `rounds` rounds and reports last ÷ first pages for each way, as `suite`'s figures.
    func report(rounds: Int, suite: String, to reporter: Reporter) async throws {
        let start = Stopwatch.now()
        let latencies = try await measure(rounds: rounds)
        let elapsed = Stopwatch.seconds(since: start)
        let shape = "page of \(pageSize) ordered by updatedAt, \(rows) rows"
        for (kind, first, last) in [
            ("keyset ($skiptoken next link)", latencies.keysetFirst, latencies.keysetLast),
            ("OFFSET ($skip)", latencies.offsetFirst, latencies.offsetLast),
            ("updatedAt ge + $skip", latencies.sinceFirst, latencies.sinceLast),
        ] {
            reporter.report(
                BenchResult(
                    suite: suite, name: "GET \(shape), last \(pagesPerEnd) pages, \(kind)", unit: "µs p50",
                    value: last.p50, baseline: first.p50, count: pagesPerEnd * rounds, seconds: elapsed,
                    p50: last.p50, p99: last.p99, latencyUnit: "µs",
                    note: "baseline: p50 of the first \(pagesPerEnd) pages, same way, same rounds "
                        + "(p99 \(BenchResult.format(first.p99)) µs); ratio 1 = flat"))
        }
    }

    func measure(rounds: Int) async throws -> Latencies {
        let pageCount = rows / pageSize
        let first = Array(0..<pagesPerEnd)
        let last = Array((pageCount - pagesPerEnd)..<pageCount)
        let keysetFirst = try await first.asyncMap(keysetURL(page:))
        let keysetLast = try await last.asyncMap(keysetURL(page:))
        let offsetFirst = try first.map(offsetURL(page:))
        let offsetLast = try last.map(offsetURL(page:))
        let sinceFirst = try await first.asyncMap(sinceURL(page:))
        let sinceLast = try await last.asyncMap(sinceURL(page:))
        var latencies = Latencies()
        for _ in 0..<rounds {
            try await time(keysetFirst, into: &latencies.keysetFirst)
            try await time(offsetFirst, into: &latencies.offsetFirst)
            try await time(keysetLast, into: &latencies.keysetLast)
            try await time(offsetLast, into: &latencies.offsetLast)
            try await time(sinceFirst, into: &latencies.sinceFirst)
            try await time(sinceLast, into: &latencies.sinceLast)
        }
        return latencies
    }

    /// Page `page` by `$skip`: the rows after `page × pageSize` others.
    private func offsetURL(page: Int) throws -> URL {
        try url("/tables/\(table)?$orderby=updatedAt&$skip=\(page * pageSize)&$top=\(pageSize)")
    }

    /// Page `page` as a pull without keysets asks for it: the rows stamped at or after its first row's
    /// `updatedAt`.
    private func sinceURL(page: Int) async throws -> URL {
        let first = try await client.query(
            table: table, queryString: "$orderby=updatedAt&$skip=\(page * pageSize)&$top=1")
        guard case .string(let stamp)? = first.items.first?["updatedAt"] else {
            throw BenchError.unexpected("row \(page * pageSize) of \(table) has no updatedAt")
        }
        let filter = "updatedAt ge datetimeoffset'\(stamp)'"
        let encoded = filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? filter
        return try url("/tables/\(table)?$filter=\(encoded)&$orderby=updatedAt&$top=\(pageSize)")
    }

    /// Page `page` by keyset: the server's next link from the page before it (read once with `$skip`).
    private func keysetURL(page: Int) async throws -> URL {
        let wanted = pageSize * 2  // a $top larger than a page, so the server links to the next one
        guard page > 0 else { return try url("/tables/\(table)?$orderby=updatedAt&$top=\(wanted)") }
        let previous = try await client.query(
            table: table, queryString: "$orderby=updatedAt&$skip=\((page - 1) * pageSize)&$top=\(wanted)")
        guard let link = previous.nextLink, link.query?.contains("$skiptoken=") == true else {
            throw BenchError.unexpected("page \(page - 1) of \(table) has no keyset next link")
        }
        return link
    }

    private func url(_ pathAndQuery: String) throws -> URL {
        guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else {
            throw BenchError.unexpected("bad URL \(pathAndQuery)")
        }
        return url
    }

    private func time(_ urls: [URL], into latencies: inout LatencyRecorder) async throws {
        for url in urls {
            let sent = Stopwatch.now()
            let response = try await client.send(TransportRequest(method: .get, url: url))
            latencies.record(nanoseconds: Stopwatch.now() - sent)
            guard response.status == 200 else {
                throw BenchError.unexpected("GET \(url) answered \(response.status)")
            }
        }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
