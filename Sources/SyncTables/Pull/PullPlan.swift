import Foundation
import Logging

/// A pull's arguments, validated before any I/O, and the requests they lead to.
struct PullPlan: Sendable {
    let table: String
    let pageSize: Int
    let maximumRecords: Int?
    let startSkip: Int
    let filterText: String?
    let filter: FilterExpression?
    let orderBy: [String]
    let parameters: [(name: String, value: String)]
    /// Where each applied page is logged (the sync engine's logger), if anywhere.
    var logger: Logger?

    init(table: String, query: StoreQuery?, queryId: String?, options: PullOptions) throws(SyncError) {
        guard options.pageSize > 0 else {
            throw .invalidQuery("the page size must be positive, not \(options.pageSize)")
        }
        if let queryId { try Self.validate(queryId: queryId) }
        let query = query ?? StoreQuery(table: table)
        if queryId != nil {
            guard query.ordering.isEmpty else {
                throw .invalidQuery("an incremental pull (with a query id) orders by updatedAt; remove the ordering")
            }
            guard query.limit == nil, query.offset == 0 else {
                throw .invalidQuery("an incremental pull (with a query id) cannot have a limit or an offset")
            }
        }
        if let limit = query.limit, limit < 0 { throw .invalidQuery("the limit \(limit) is negative") }
        guard query.offset >= 0 else { throw .invalidQuery("the offset \(query.offset) is negative") }
        for name in options.parameters.keys {
            guard !name.isEmpty, !name.hasPrefix("$"), !name.lowercased().hasPrefix("__") else {
                throw .invalidQuery(
                    "'\(name)' cannot be a pull parameter: names starting with $ or __ are reserved "
                        + "(__includeDeleted is always true in a pull)")
            }
        }
        do {
            filterText = try query.filter.map { try ODataFilterWriter.text(for: $0) }
            let ordering = try ODataOrderBy.text(for: query.ordering)
            orderBy = ordering.isEmpty ? [] : [ordering]
        } catch {
            throw .invalidQuery("the query cannot be sent to the server: \(error)")
        }
        self.table = table
        self.pageSize = options.pageSize
        self.maximumRecords = query.limit
        self.startSkip = query.offset
        self.filter = query.filter
        self.parameters = options.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// A query id names one logical query: at most 255 characters and no `|` (the token key separator).
    static func validate(queryId: String) throws(SyncError) {
        guard queryId.utf16.count <= 255, !queryId.contains("|") else {
            throw .invalidQuery("the query id must have at most 255 characters and no '|'")
        }
    }

    /// A full pull's page request.
    func request(skip: Int, top: Int) -> TableQuery {
        var request = baseRequest()
        request.filter = filterText
        request.orderBy = orderBy
        request.skip = skip
        request.top = top
        return request
    }

    /// An incremental pull's page request without keysets: `(filter) and (updatedAt ge T)`, ordered by
    /// `updatedAt`, paging with `$skip` through records that share `T` (see the *Wire protocol* article,
    /// section *Incremental pull*).
    func incrementalRequest(since token: Timestamp, skip: Int) throws(SyncError) -> TableQuery {
        let watermark = FilterExpression.comparison(.greaterThanOrEqual, .property("updatedAt"), .timestamp(token))
        var request = try incrementalRequest(filter: watermark)
        request.orderBy = ["updatedAt"]
        request.skip = skip
        return request
    }

    /// An incremental pull's page request after a keyset position `(T, X)`:
    /// `(filter) and (updatedAt ge T and (updatedAt gt T or (updatedAt eq T and id gt 'X')))`, ordered by
    /// `updatedAt,id`, without `$skip`. The redundant `ge` lets the server's `(updatedAt, id)` index start at `T`.
    func keysetRequest(afterTime token: Timestamp, id itemId: String) throws(SyncError) -> TableQuery {
        let updatedAt = FilterExpression.property("updatedAt")
        let time = FilterExpression.timestamp(token)
        let after = FilterExpression.and(
            .comparison(.greaterThanOrEqual, updatedAt, time),
            .or(
                .comparison(.greaterThan, updatedAt, time),
                .and(
                    .comparison(.equal, updatedAt, time),
                    .comparison(.greaterThan, .property("id"), .value(.string(itemId))))))
        var request = try incrementalRequest(filter: after)
        request.orderBy = ["updatedAt", "id"]
        return request
    }

    private func incrementalRequest(filter position: FilterExpression) throws(SyncError) -> TableQuery {
        var request = baseRequest()
        do {
            request.filter = try ODataFilterWriter.text(for: filter.map { .and($0, position) } ?? position)
        } catch {
            throw .invalidQuery("the query cannot be sent to the server: \(error)")
        }
        request.top = pageSize
        return request
    }

    private func baseRequest() -> TableQuery {
        var request = TableQuery()
        request.includeDeleted = true
        request.parameters = parameters
        return request
    }
}
