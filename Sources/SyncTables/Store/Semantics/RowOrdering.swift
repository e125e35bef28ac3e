@_spi(SyncTablesTools) import SyncTablesCore

/// Orders rows the way both stores do: by each sort key's projected value (NULL first when ascending),
/// then by `id` bytes ascending so ties always come back in the same order.
struct RowOrdering {
    /// The sort keys.
    let ordering: [SortDescriptor]
    /// The table's date properties (ordered as instants).
    let dateProperties: Set<String>

    /// The sort keys of one row, computed once per row.
    func keys(of item: JSONObject) -> [ProjectedValue] {
        ordering.map {
            Projection.project(item[$0.property], isDate: FilterPreparation.isDateProperty($0.property, dateProperties))
        }
    }

    /// `true` when the row with keys `lhs` comes before the row with keys `rhs`.
    func precedes(_ lhs: (keys: [ProjectedValue], id: String), _ rhs: (keys: [ProjectedValue], id: String)) -> Bool {
        for (index, descriptor) in ordering.enumerated() {
            let order = ProjectedValue.order(lhs.keys[index], rhs.keys[index])
            if order != 0 { return descriptor.ascending ? order < 0 : order > 0 }
        }
        return ProjectedValue.compareUTF8(lhs.id, rhs.id) < 0
    }
}
