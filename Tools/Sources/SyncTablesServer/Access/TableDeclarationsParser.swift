import Yams

/// Reads the `--tables` YAML into ``TableDeclarations``, refusing anything it does not know, so a typo in an
/// access rule or a type never turns into a table that is more open than its author meant.
enum TableDeclarationsParser {
    static func parse(_ yaml: String) throws(TableDeclarationError) -> TableDeclarations {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw TableDeclarationError("not valid YAML: \(error)")
        }
        guard let document = root?.mapping else {
            throw TableDeclarationError("expected a mapping with the key 'tables'")
        }
        try rejectUnknownKeys(document, allowed: ["tables"], in: "the document")
        guard let tablesNode = document["tables"], let tables = tablesNode.mapping, !tables.isEmpty else {
            throw TableDeclarationError("'tables' must map at least one table name to its declaration")
        }
        var declared: [String: TableDeclaration] = [:]
        for (key, value) in tables {
            let name = try scalar(key, what: "a table name")
            guard TableName.isValid(name) else {
                throw TableDeclarationError("\(place(key))'\(name)' is not a valid table name")
            }
            declared[name] = try table(name, value)
        }
        let declarations = TableDeclarations(tables: declared)
        try declarations.validate()
        return declarations
    }

    private static func table(_ name: String, _ node: Node) throws(TableDeclarationError) -> TableDeclaration {
        let context = "table '\(name)'"
        guard let mapping = node.mapping else {
            throw TableDeclarationError("\(place(node))\(context) must be a mapping with 'access' and 'columns'")
        }
        try rejectUnknownKeys(
            mapping,
            allowed: ["access", "ownerColumn", "claim", "claimColumn", "columns", "softDelete", "references"],
            in: context)
        guard let accessNode = mapping["access"] else {
            throw TableDeclarationError(
                "\(place(node))\(context) has no 'access' rule (owner, claim, authenticated or read-only)")
        }
        let access = try accessRule(accessNode, mapping, context: context)
        var columns: [String: ColumnDeclaration] = [:]
        if let columnsNode = mapping["columns"] {
            guard let columnMapping = columnsNode.mapping else {
                throw TableDeclarationError("\(place(columnsNode))\(context): 'columns' must map names to types")
            }
            for (key, value) in columnMapping {
                let column = try scalar(key, what: "a column name")
                try checkColumnName(column, key, context: context, access: access)
                columns[column] = try columnDeclaration(value, context: "\(context), column '\(column)'")
            }
        }
        var softDelete = false
        if let node = mapping["softDelete"] {
            guard let flag = node.bool else {
                throw TableDeclarationError("\(place(node))\(context): 'softDelete' must be true or false")
            }
            softDelete = flag
        }
        var references: [String: String] = [:]
        if let referencesNode = mapping["references"] {
            guard let referenceMapping = referencesNode.mapping else {
                throw TableDeclarationError(
                    "\(place(referencesNode))\(context): 'references' must map columns to parent tables")
            }
            for (key, value) in referenceMapping {
                let column = try scalar(key, what: "a column name")
                guard columns[column] != nil else {
                    throw TableDeclarationError(
                        "\(place(key))\(context): the reference '\(column)' is not a declared column")
                }
                references[column] = try scalar(value, what: "a parent table name")
            }
        }
        return TableDeclaration(access: access, columns: columns, softDelete: softDelete, references: references)
    }

    private static func accessRule(_ node: Node, _ table: Node.Mapping, context: String)
        throws(TableDeclarationError) -> AccessRule
    {
        let rule = try scalar(node, what: "an access rule")
        func column(_ key: String) throws(TableDeclarationError) -> String {
            guard let node = table[key] else {
                throw TableDeclarationError("\(place(node))\(context): access '\(rule)' needs '\(key)'")
            }
            return try scalar(node, what: "'\(key)'")
        }
        func refuse(_ keys: [String]) throws(TableDeclarationError) {
            if let key = keys.first(where: { table[$0] != nil }) {
                throw TableDeclarationError("\(context): '\(key)' does not apply to access '\(rule)'")
            }
        }
        switch rule {
        case "owner":
            try refuse(["claim", "claimColumn"])
            return .owner(column: try column("ownerColumn"))
        case "claim":
            try refuse(["ownerColumn"])
            return .claim(try column("claim"), column: try column("claimColumn"))
        case "authenticated":
            try refuse(["ownerColumn", "claim", "claimColumn"])
            return .authenticated
        case "read-only":
            try refuse(["ownerColumn", "claim", "claimColumn"])
            return .readOnly
        default:
            throw TableDeclarationError(
                "\(place(node))\(context): unknown access '\(rule)'; use owner, claim, authenticated or read-only")
        }
    }

    private static func columnDeclaration(_ node: Node, context: String) throws(TableDeclarationError)
        -> ColumnDeclaration
    {
        if node.scalar != nil { return ColumnDeclaration(try type(node, context: context)) }
        guard let mapping = node.mapping else {
            throw TableDeclarationError("\(place(node))\(context): expected a type or { type: …, required: … }")
        }
        try rejectUnknownKeys(mapping, allowed: ["type", "required"], in: context)
        guard let typeNode = mapping["type"] else {
            throw TableDeclarationError("\(place(node))\(context) has no 'type'")
        }
        var required = false
        if let node = mapping["required"] {
            guard let flag = node.bool else {
                throw TableDeclarationError("\(place(node))\(context): 'required' must be true or false")
            }
            required = flag
        }
        return ColumnDeclaration(try type(typeNode, context: context), required: required)
    }

    private static func type(_ node: Node, context: String) throws(TableDeclarationError) -> ColumnType {
        let name = try scalar(node, what: "a type")
        guard let type = ColumnType(rawValue: name) else {
            let known = ColumnType.allCases.map(\.rawValue).joined(separator: ", ")
            throw TableDeclarationError("\(place(node))\(context): unknown type '\(name)'; use one of \(known)")
        }
        return type
    }

    private static func checkColumnName(_ name: String, _ node: Node, context: String, access: AccessRule)
        throws(TableDeclarationError)
    {
        if TableProperties.alwaysPresent.contains(where: { $0.lowercased() == name.lowercased() }) {
            throw TableDeclarationError(
                "\(place(node))\(context): '\(name)' is a system property; every table has it without declaring it")
        }
        if let stamped = access.stampedColumn, stamped == name {
            throw TableDeclarationError(
                "\(place(node))\(context): '\(name)' is filled in by the server from the token; do not declare it")
        }
    }

    private static func rejectUnknownKeys(_ mapping: Node.Mapping, allowed: Set<String>, in context: String)
        throws(TableDeclarationError)
    {
        for key in mapping.keys {
            let name = key.string ?? "?"
            if !allowed.contains(name) {
                let known = allowed.sorted().joined(separator: ", ")
                throw TableDeclarationError("\(place(key))\(context): unknown key '\(name)' (expected \(known))")
            }
        }
    }

    private static func scalar(_ node: Node, what: String) throws(TableDeclarationError) -> String {
        guard let text = node.scalar?.string, !text.isEmpty else {
            throw TableDeclarationError("\(place(node))expected \(what)")
        }
        return text
    }

    private static func place(_ node: Node) -> String {
        node.mark.map { "line \($0.line): " } ?? ""
    }
}
