/// Checks a table name from the URL before it reaches the store.
enum TableName {
    /// Returns the name when it is a user table identifier; otherwise the 400/404 to send.
    static func validated(_ name: String) throws(ServerError) -> String {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first, scalars.count <= 128,
            isLetterOrUnderscore(first), scalars.allSatisfy({ isLetterOrUnderscore($0) || isDigit($0) })
        else {
            throw ServerError(
                .badRequest,
                "Invalid table name '\(name)': use a letter or '_' followed by letters, digits or '_' (at most 128)."
            )
        }
        guard !name.hasPrefix("__") else {
            throw ServerError(.notFound, "The table '\(name)' does not exist.")
        }
        return name
    }

    /// Whether the name is one a client may use in a URL (declared tables must be).
    static func isValid(_ name: String) -> Bool {
        (try? validated(name)) != nil
    }

    private static func isLetterOrUnderscore(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
