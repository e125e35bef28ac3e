extension SyncRules {
    /// Declares rules with the item type's coding keys, so the compiler checks every field name.
    ///
    /// ```swift
    /// static let syncRules = SyncRules(keys: CodingKeys.self) {
    ///     $0.merge(.quantity, .counter)
    ///     $0.mergeOtherFields(.serverWins)
    /// }
    /// ```
    public init<Key: CodingKey>(keys: Key.Type, _ declare: (inout Declaration<Key>) -> Void) {
        var declaration = Declaration<Key>()
        declare(&declaration)
        self = declaration.rules
    }

    /// The rules of one table as they are declared, field names given as the item's coding keys.
    public struct Declaration<Key: CodingKey> {
        /// The rules declared so far.
        public private(set) var rules = SyncRules()

        init() {}

        /// Merges conflicts per field, and resolves `field` with `rule` when both sides changed it.
        public mutating func merge(_ field: Key, _ rule: FieldMergeRule) {
            rules.fieldRules[field.stringValue] = rule
            rules.mergesFields = true
        }

        /// Merges conflicts per field, resolving fields without a rule of their own with `rule` when both
        /// sides changed them (``FieldMergeRule/lastWriter`` unless declared).
        public mutating func mergeOtherFields(_ rule: FieldMergeRule = .lastWriter) {
            rules.defaultFieldRule = rule
            rules.mergesFields = true
        }

        /// Resolves conflicts of `kind` with `rule`.
        public mutating func onConflict(_ kind: ConflictKind, _ rule: ConflictRule) {
            rules.conflictRules[kind] = rule
        }

        /// Makes updates send only the fields changed since their ancestor.
        public mutating func sendOnlyChangedFields() {
            rules.sendsOnlyChangedFields = true
        }

        /// Declares that `field` holds the id of an item of the table `table`.
        public mutating func parent(_ field: Key, table: String) {
            rules.parents.append(ParentReference(property: field.stringValue, table: table))
        }

        /// Declares that `field` holds a ``FileAttachment`` (optional, or an array of them): a push uploads its
        /// file before the first operation that references it, and the file stays on the device while a row
        /// references it.
        public mutating func attachment(_ field: Key) {
            if !rules.attachments.contains(field.stringValue) { rules.attachments.append(field.stringValue) }
        }

        /// Makes a pull of the table download the files its rows reference right away (for what must be there
        /// offline), instead of when the app reads them.
        public mutating func downloadAttachmentsEagerly() {
            rules.downloadsAttachmentsEagerly = true
        }

        /// Declares that `field` holds the id of an item of `type`'s table, named after the type.
        public mutating func parent<Parent: SyncItem>(_ field: Key, _ type: Parent.Type) {
            parent(field, table: String(describing: type))
        }
    }
}
