@_spi(SyncTablesTools) import SyncTablesCore

extension FilterPreparation {
    /// ``FilterPreparation/prepare(_:dateProperties:)`` as a store reports it: a filter it refuses is
    /// ``StoreError/invalidQuery(message:)``.
    static func prepareForStore(_ expression: FilterExpression, dateProperties: Set<String>) throws(StoreError)
        -> FilterExpression
    {
        do {
            return try prepare(expression, dateProperties: dateProperties)
        } catch {
            throw .invalidQuery(message: error.message)
        }
    }
}
