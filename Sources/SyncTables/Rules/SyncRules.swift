/// How one table's conflicts are resolved, what its updates send and which parents its items wait for:
/// declared once on the item type (``SyncRulesProvider``) and kept in the store, so every push of the
/// store follows them — the engine's, a ``SyncContext/push()`` made before the table was opened, and
/// `synctables push`.
///
/// A table without rules behaves exactly as before rules existed: every conflict goes to the
/// ``ConflictPolicy``.
///
/// ```swift
/// struct Task: SyncItem, SyncRulesProvider {
///     var id: String
///     var title: String
///     var quantity: Int
///     var tags: [String]
///     var listId: String
///     var version: String?
///
///     static let syncRules = SyncRules(keys: CodingKeys.self) {
///         $0.merge(.quantity, .counter)
///         $0.merge(.tags, .union)
///         $0.onConflict(.deleteUpdate, .serverWins)
///         $0.parent(.listId, table: "TaskList")
///         $0.sendOnlyChangedFields()
///     }
/// }
/// ```
public struct SyncRules: Sendable, Hashable {
    /// Whether an update/update or insert/insert conflict is merged per field (``ConflictRule/merge``)
    /// unless ``conflictRules`` says otherwise. Declaring any field rule turns it on.
    public var mergesFields: Bool
    /// The rule of fields both sides changed that ``fieldRules`` does not name.
    public var defaultFieldRule: FieldMergeRule
    /// The rule of each field both sides changed, by the field's name on the wire.
    public var fieldRules: [String: FieldMergeRule]
    /// The rule of each kind of conflict; a kind without one is merged (update/update and insert/insert,
    /// when ``mergesFields``) or goes to the ``ConflictPolicy``.
    public var conflictRules: [ConflictKind: ConflictRule]
    /// Whether an update sends only the fields changed since its ancestor (the server merges a `PATCH`),
    /// instead of the whole item.
    public var sendsOnlyChangedFields: Bool
    /// The parents the table's items reference.
    public var parents: [ParentReference]
    /// The properties that hold a ``FileAttachment`` (or `nil`, or an array of attachments), by their names on
    /// the wire: a push uploads their files first, and the files stay on the device while a row references
    /// them.
    public var attachments: [String]
    /// Whether a pull of the table downloads the files its rows reference right away, instead of when the app
    /// reads them.
    public var downloadsAttachmentsEagerly: Bool

    /// Rules given field by field; ``init(keys:_:)`` checks the names against the item's coding keys.
    public init(
        mergesFields: Bool = false,
        defaultFieldRule: FieldMergeRule = .lastWriter,
        fieldRules: [String: FieldMergeRule] = [:],
        conflictRules: [ConflictKind: ConflictRule] = [:],
        sendsOnlyChangedFields: Bool = false,
        parents: [ParentReference] = [],
        attachments: [String] = [],
        downloadsAttachmentsEagerly: Bool = false
    ) {
        self.mergesFields = mergesFields || !fieldRules.isEmpty
        self.defaultFieldRule = defaultFieldRule
        self.fieldRules = fieldRules
        self.conflictRules = conflictRules
        self.sendsOnlyChangedFields = sendsOnlyChangedFields
        self.parents = parents
        self.attachments = attachments
        self.downloadsAttachmentsEagerly = downloadsAttachmentsEagerly
    }

    /// No rules: every conflict goes to the ``ConflictPolicy`` and updates send the whole item.
    public static let none = SyncRules()

    /// The rule for a kind of conflict: the declared one, else ``ConflictRule/merge`` for update/update and
    /// insert/insert when fields merge, else ``ConflictRule/ask``.
    public func rule(for kind: ConflictKind) -> ConflictRule {
        if let declared = conflictRules[kind] { return declared }
        switch kind {
        case .updateUpdate, .insertInsert: return mergesFields ? .merge : .ask
        case .updateDelete, .deleteUpdate: return .ask
        }
    }

    /// The rule of a field both sides changed.
    public func rule(forField field: String) -> FieldMergeRule {
        fieldRules[field] ?? defaultFieldRule
    }
}
