import SyncTablesCore

import struct Foundation.Data

/// Where a page of a query ended: the last row's values of the sort keys and its id. A next-page link carries
/// it as `$skiptoken`, and the next page selects the rows after it with a filter instead of `OFFSET`, so page k
/// of a large table costs what page 1 costs and rows written meanwhile do not shift the pages.
///
/// Rows are ordered as the store orders them: by each sort key (`null` first ascending, then numbers, then
/// text), then by `id`. Comparisons in filters follow the same order across types, so "after" is exact.
struct Keyset: Sendable, Equatable {
    /// One value per sort key, in the query's order.
    var values: [JSONValue]
    /// The last row's id.
    var id: String

    /// A position from its parts.
    init(values: [JSONValue], id: String) {
        self.values = values
        self.id = id
    }

    /// The position after `row` in a query ordered by `ordering`.
    init(after row: JSONObject, ordering: [SortDescriptor]) throws(ServerError) {
        guard case .string(let id)? = row["id"] else {
            throw ServerError(.internalServerError, "A row without an id cannot be a page boundary.")
        }
        self.values = ordering.map { row[$0.property] ?? .null }
        self.id = id
    }

    /// Reads a `$skiptoken` for a query ordered by `ordering`; anything else is a 400.
    init(token: String, ordering: [SortDescriptor]) throws(ServerError) {
        let invalid = ServerError(.badRequest, "Invalid $skiptoken: it must be copied from a next-page link.")
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let value = try? JSONValue(parsing: Array(data)),
            case .array(var parts) = value, parts.count == ordering.count + 1,
            case .string(let id)? = parts.popLast()
        else { throw invalid }
        self.values = parts
        self.id = id
    }

    /// The `$skiptoken` text: the values and the id as a JSON array, base64url without padding.
    var token: String {
        let bytes = JSONValue.array(values + [.string(id)]).jsonBytes
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The rows after this position as consecutive slices of the order, each one index range: first the rows
    /// equal on every sort key with a greater id, then those equal on all but the last key and after it on
    /// that key, and so on up to the rows after it on the first key. Reading the slices in turn until a page is
    /// full never scans a long run of equal values (all rows with one `updatedAt`) from its start.
    func slicesAfter(ordering: [SortDescriptor]) -> [FilterExpression] {
        var ties = zip(ordering, values).map { descriptor, value in
            FilterExpression.comparison(.equal, .property(descriptor.property), .value(value))
        }
        var slices = [Self.all(ties + [.comparison(.greaterThan, .property("id"), .value(.string(id)))])]
        for (descriptor, value) in zip(ordering, values).reversed() {
            ties.removeLast()
            let key = FilterExpression.property(descriptor.property)
            let strictlyAfter: FilterExpression
            switch (descriptor.ascending, value == .null) {
            case (true, true): strictlyAfter = .comparison(.notEqual, key, .value(.null))
            case (true, false): strictlyAfter = .comparison(.greaterThan, key, .value(value))
            case (false, true): continue  // null comes last descending: nothing is strictly after it
            case (false, false):
                strictlyAfter = .or(.comparison(.lessThan, key, .value(value)), .comparison(.equal, key, .value(.null)))
            }
            slices.append(Self.all(ties + [strictlyAfter]))
        }
        return slices
    }

    private static func all(_ terms: [FilterExpression]) -> FilterExpression {
        terms.dropFirst().reduce(terms[0]) { .and($0, $1) }
    }

    /// The rows after this position in a query ordered by `ordering` (then by `id`), as one filter.
    func rowsAfter(ordering: [SortDescriptor]) -> FilterExpression {
        var after = FilterExpression.comparison(.greaterThan, .property("id"), .value(.string(id)))
        for (descriptor, value) in zip(ordering, values).reversed() {
            let key = FilterExpression.property(descriptor.property)
            let tie = FilterExpression.and(.comparison(.equal, key, .value(value)), after)
            switch (descriptor.ascending, value == .null) {
            case (true, true):
                // null comes first: every non-null value is after it.
                after = .or(.comparison(.notEqual, key, .value(.null)), tie)
            case (true, false):
                // The `ge` bound alone lets an index on the key start at the position.
                after = .and(
                    .comparison(.greaterThanOrEqual, key, .value(value)),
                    .or(.comparison(.greaterThan, key, .value(value)), tie))
            case (false, true):
                // null comes last: only ties on it follow.
                after = tie
            case (false, false):
                after = .or(
                    .and(
                        .comparison(.lessThanOrEqual, key, .value(value)),
                        .or(.comparison(.lessThan, key, .value(value)), tie)),
                    .comparison(.equal, key, .value(.null)))
            }
        }
        return after
    }
}
