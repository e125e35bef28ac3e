/// The part of an update that changed since its ancestor: what a table with
/// ``SyncRules/sendsOnlyChangedFields`` sends, since the server merges a `PATCH` into its copy.
enum ChangedFields {
    /// `item`'s `id` and `version` (for `If-Match`) and every other property whose value differs from the
    /// ancestor's. A property the item lacks is not sent, as with a whole item: the server keeps its value.
    static func item(_ item: JSONObject, since ancestor: JSONObject) -> JSONObject {
        var changed = JSONObject()
        for name in ["id", "version"] { changed[name] = item[name] }
        for (name, value) in item.properties where !FieldMergeValues.isSystemProperty(name) {
            if ancestor[name] != value { changed[name] = value }
        }
        return changed
    }
}
