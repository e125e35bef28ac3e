/// One table's ``SyncRules`` as a row of `__tables`, keyed by the table's lower-cased name (stores compare
/// table names case-insensitively).
struct TableRulesRecord: SystemRecord, Equatable {
    var table: String
    var rules: SyncRules

    static var table: String { SystemTables.tables }

    static let definition = TableDefinition(name: SystemTables.tables)

    enum Field {
        static let tableName = "tableName"
        static let mergesFields = "mergesFields"
        static let defaultFieldRule = "defaultFieldRule"
        static let fieldRules = "fieldRules"
        static let conflictRules = "conflictRules"
        static let sendsOnlyChangedFields = "sendsOnlyChangedFields"
        static let parents = "parents"
        static let attachments = "attachments"
        static let downloadsAttachmentsEagerly = "downloadsAttachmentsEagerly"
    }

    init(table: String, rules: SyncRules) {
        self.table = table
        self.rules = rules
    }

    var row: JSONObject {
        JSONObject([
            "id": .string(table.lowercased()),
            Field.tableName: .string(table),
            Field.mergesFields: .bool(rules.mergesFields),
            Field.defaultFieldRule: .string(rules.defaultFieldRule.rawValue),
            Field.fieldRules: .object(JSONObject(rules.fieldRules.mapValues { .string($0.rawValue) })),
            Field.conflictRules: .object(
                JSONObject(
                    Dictionary(uniqueKeysWithValues: rules.conflictRules.map { ($0.rawValue, .string($1.rawValue)) }))),
            Field.sendsOnlyChangedFields: .bool(rules.sendsOnlyChangedFields),
            Field.parents: .array(
                rules.parents.map {
                    .object(JSONObject(["property": .string($0.property), "table": .string($0.table)]))
                }),
            Field.attachments: .array(rules.attachments.map { .string($0) }),
            Field.downloadsAttachmentsEagerly: .bool(rules.downloadsAttachmentsEagerly),
        ])
    }

    init(_ row: SystemRow) throws(SyncError) {
        func rule<Rule: RawRepresentable>(_ value: JSONValue, field: String, as type: Rule.Type) throws(SyncError)
            -> Rule
        where Rule.RawValue == String {
            guard case .string(let name) = value, let rule = Rule(rawValue: name) else { throw row.corrupt(field) }
            return rule
        }
        guard case .bool(let mergesFields)? = row.object[Field.mergesFields],
            case .bool(let sendsOnlyChangedFields)? = row.object[Field.sendsOnlyChangedFields],
            let fieldRows = row.optionalObject(Field.fieldRules),
            let conflictRows = row.optionalObject(Field.conflictRules),
            let parentRows = row.optionalArray(Field.parents)
        else { throw row.corrupt(Field.mergesFields) }
        var fieldRules: [String: FieldMergeRule] = [:]
        for (name, value) in fieldRows.properties {
            fieldRules[name] = try rule(value, field: Field.fieldRules, as: FieldMergeRule.self)
        }
        var conflictRules: [ConflictKind: ConflictRule] = [:]
        for (name, value) in conflictRows.properties {
            guard let kind = ConflictKind(rawValue: name) else { throw row.corrupt(Field.conflictRules) }
            conflictRules[kind] = try rule(value, field: Field.conflictRules, as: ConflictRule.self)
        }
        var parents: [ParentReference] = []
        for value in parentRows {
            guard case .object(let parent) = value, case .string(let property)? = parent["property"],
                case .string(let table)? = parent["table"]
            else { throw row.corrupt(Field.parents) }
            parents.append(ParentReference(property: property, table: table))
        }
        // Rules stored before attachments existed have none.
        var attachments: [String] = []
        for value in row.optionalArray(Field.attachments) ?? [] {
            guard case .string(let property) = value else { throw row.corrupt(Field.attachments) }
            attachments.append(property)
        }
        self.init(
            table: try row.string(Field.tableName),
            rules: SyncRules(
                mergesFields: mergesFields,
                defaultFieldRule: try rule(
                    row.object[Field.defaultFieldRule] ?? .null, field: Field.defaultFieldRule,
                    as: FieldMergeRule.self),
                fieldRules: fieldRules, conflictRules: conflictRules, sendsOnlyChangedFields: sendsOnlyChangedFields,
                parents: parents, attachments: attachments,
                downloadsAttachmentsEagerly: row.object[Field.downloadsAttachmentsEagerly] == .bool(true)))
    }

    /// The rules stored for `table`, ``SyncRules/none`` when none are.
    static func rules(of table: String, in transaction: any StoreTransaction) throws -> SyncRules {
        try transaction.lookup(table: Self.table, id: table.lowercased()).map { try Self(row: $0).rules } ?? .none
    }

    /// The rules stored for `table`, read in a transaction of their own.
    static func rules(of table: String, in store: any LocalStore) async throws -> SyncRules {
        try await SyncError.mapping {
            try await store.lookup(table: Self.table, id: table.lowercased()).map { try Self(row: $0).rules } ?? .none
        }
    }

    /// Every table's stored rules.
    static func all(in transaction: any StoreTransaction) throws -> [TableRulesRecord] {
        try transaction.read(StoreQuery(table: Self.table)).map { try Self(row: $0) }
    }
}
