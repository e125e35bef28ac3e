extension Array where Element == StoreQuery {
    /// The rows of these queries in turn, at most `limit` in all: each query is read by `read` with the limit
    /// still left (its own limit is ignored), and none once `limit` rows are in. For the slices of one keyset
    /// page, which the caller reads inside one transaction.
    @_spi(SyncTablesTools) public func rows<Row>(limit: Int, _ read: (StoreQuery) throws -> [Row]) rethrows -> [Row] {
        var rows: [Row] = []
        for var slice in self where rows.count < limit {
            slice.limit = limit - rows.count
            rows += try read(slice)
        }
        return rows
    }
}
