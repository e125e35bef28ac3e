import Testing

@testable import SyncTablesServer

@Suite("The --tables file")
struct TableDeclarationsFileTests {
    static let issueExample = """
        tables:
          notes:
            access: owner          # rows belong to the token's subject
            ownerColumn: userId    # filled in by the server from the token; never taken from the client
            columns: { text: string, done: bool, rank: number }
          announcements:
            access: read-only      # anyone with a valid token reads; nobody writes through the protocol
            columns: { title: string }
        """

    @Test func theDocumentedExampleReadsAsWritten() throws {
        let declarations = try TableDeclarations(yaml: Self.issueExample)
        #expect(declarations.tables.keys.sorted() == ["announcements", "notes"])
        let notes = try #require(declarations.tables["notes"])
        #expect(notes.access == .owner(column: "userId"))
        #expect(
            notes.columns == [
                "text": ColumnDeclaration(.string), "done": ColumnDeclaration(.bool),
                "rank": ColumnDeclaration(.number),
            ])
        #expect(declarations.tables["announcements"]?.access == .readOnly)
        #expect(declarations.tables["announcements"]?.columns == ["title": ColumnDeclaration(.string)])
    }

    @Test func claimAndAuthenticatedRulesTheLongColumnFormAndSoftDeleteRead() throws {
        let declarations = try TableDeclarations(
            yaml: """
                tables:
                  projects:
                    access: claim
                    claim: team
                    claimColumn: teamId
                    softDelete: true
                    columns:
                      name: { type: string, required: true }
                      due: date
                      tags: array
                  shared:
                    access: authenticated
                    columns: { body: json, count: integer, meta: object }
                """)
        let projects = try #require(declarations.tables["projects"])
        #expect(projects.access == .claim("team", column: "teamId"))
        #expect(projects.softDelete)
        #expect(projects.columns["name"] == ColumnDeclaration(.string, required: true))
        #expect(projects.columns["due"] == ColumnDeclaration(.date))
        #expect(declarations.tables["shared"]?.access == .authenticated)
        #expect(declarations.tables["shared"]?.columns["count"] == ColumnDeclaration(.integer))
    }

    @Test(arguments: [
        ("tables:\n  notes:\n    access: everyone\n", "line 3: table 'notes': unknown access 'everyone'"),
        ("tables:\n  notes:\n    access: owner\n", "table 'notes': access 'owner' needs 'ownerColumn'"),
        ("tables:\n  notes:\n    columns: { a: string }\n", "table 'notes' has no 'access' rule"),
        ("tables:\n  notes:\n    access: authenticated\n    columns: { a: text }\n", "unknown type 'text'"),
        ("tables:\n  notes:\n    access: authenticated\n    colums: { a: string }\n", "unknown key 'colums'"),
        ("tables:\n  notes:\n    access: authenticated\n    ownerColumn: u\n", "'ownerColumn' does not apply"),
        ("tables:\n  notes:\n    access: authenticated\n    columns: { updatedAt: string }\n", "system property"),
        (
            "tables:\n  n:\n    access: owner\n    ownerColumn: u\n    columns: { u: string }\n",
            "filled in by the server"
        ),
        ("tables:\n  __config:\n    access: authenticated\n", "not a valid table name"),
        ("tables: {}\n", "at least one table"),
        ("tables:\n  notes: [1, 2]\n", "must be a mapping"),
        ("tables:\n  notes:\n    access: authenticated\n    softDelete: maybe\n", "'softDelete' must be true or false"),
        ("tables: [\n", "not valid YAML"),
        (
            "tables:\n  tasks:\n    access: authenticated\n    columns: { listId: string }\n    references: { listId: lists }\n",
            "table 'tasks', reference 'listId': the parent table 'lists' is not declared (declared: tasks)"
        ),
        (
            "tables:\n  tasks:\n    access: authenticated\n    columns: { title: string }\n    references: { listId: tasks }\n",
            "line 5: table 'tasks': the reference 'listId' is not a declared column"
        ),
        (
            "tables:\n  tasks:\n    access: authenticated\n    columns: { rank: integer }\n    references: { rank: tasks }\n",
            "'rank' holds ids, so it must be declared as string, not integer"
        ),
        (
            "tables:\n  tasks:\n    access: authenticated\n    columns: { a: string }\n    references: [a]\n",
            "'references' must map columns to parent tables"
        ),
    ])
    func aMistakeIsRefusedWithAMessageThatSaysWhere(yaml: String, expected: String) {
        #expect {
            try TableDeclarations(yaml: yaml)
        } throws: { error in
            guard let error = error as? TableDeclarationError else { return false }
            return error.message.contains(expected)
        }
    }

    @Test func referencesReadAsColumnsToParentTables() throws {
        let declarations = try TableDeclarations(
            yaml: """
                tables:
                  lists: { access: owner, ownerColumn: userId, columns: { name: string } }
                  tasks:
                    access: owner
                    ownerColumn: userId
                    columns: { title: string, listId: string, parentId: string }
                    references: { listId: lists, parentId: tasks }
                """)
        #expect(declarations.tables["tasks"]?.references == ["listId": "lists", "parentId": "tasks"])
        #expect(declarations.tables["lists"]?.references == [:])
    }

    @Test func aServerRefusesToStartWithReferencesDeclaredInCodeThatNameNoTable() async throws {
        var configuration = SyncServerConfiguration(storage: .inMemory)
        configuration.declaredTables = TableDeclarations(tables: [
            "tasks": TableDeclaration(
                access: .authenticated, columns: ["listId": ColumnDeclaration(.string)], references: ["listId": "lists"]
            )
        ])
        await #expect {
            _ = try await SyncServer(configuration: configuration)
        } throws: { error in
            (error as? TableDeclarationError)?.message.contains("the parent table 'lists' is not declared") == true
        }
    }

    @Test func aMissingFileIsRefusedNamingIt() {
        #expect {
            try TableDeclarations(contentsOfFile: "/nonexistent/tables.yaml")
        } throws: { error in
            (error as? TableDeclarationError)?.message.contains("/nonexistent/tables.yaml") == true
        }
    }
}
