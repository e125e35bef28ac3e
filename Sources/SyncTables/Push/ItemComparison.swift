/// Compares items the way lost-response recovery needs: user data only, system properties ignored.
enum ItemComparison {

    /// `true` when both items carry the same user properties with the same values.
    static func sameUserData(_ lhs: JSONObject, _ rhs: JSONObject) -> Bool {
        userData(lhs) == userData(rhs)
    }

    /// Whether `server` holds every user property of `sent` with the same value (a property sent as
    /// `null` counts as absent).
    static func holds(_ sent: JSONObject, in server: JSONObject) -> Bool {
        let serverData = userData(server)
        return userData(sent).allSatisfy { serverData[$0.key] == $0.value }
    }

    private static func userData(_ item: JSONObject) -> [String: JSONValue] {
        item.properties.filter { !SyncClient.systemPropertyNames.contains($0.key.lowercased()) && $0.value != .null }
    }
}
