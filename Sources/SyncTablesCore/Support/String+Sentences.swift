extension String {
    /// The text with each doubled period (`..`, from a message that ends with a period placed before
    /// another period) written once; an ellipsis (`...`) is kept.
    @_spi(SyncTablesTools) public var withoutDoubledPeriods: String {
        guard contains("..") else { return self }
        var result = ""
        result.reserveCapacity(utf8.count)
        var characters = Array(self)[...]
        while let character = characters.popFirst() {
            if character == ".", characters.first == ".", characters.dropFirst().first != ".",
                result.last != "."
            {
                continue  // the first of exactly two periods
            }
            result.append(character)
        }
        return result
    }
}
