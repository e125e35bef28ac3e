/// A store that knows every top-level property the rows of a table have ever had.
///
/// A query that filters on any other property (and that the item type does not declare) is refused with
/// ``SyncError/unknownColumn(_:table:nearest:)``: it is most likely a typo, which would otherwise match
/// nothing, or, negated, everything. Stores that do not conform skip that check.
package protocol StoredPropertyNames: LocalStore {
    /// Every top-level property any row of `table` has ever had; empty for a table the store does not have.
    func propertyNames(table: String) async throws -> Set<String>
}
