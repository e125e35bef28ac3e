// The SyncTables demo: an embedded sync-server on a free port and two devices that work offline,
// push, pull incrementally, meet conflicts and resolve them, merge a conflict field by field, and purge; then
// a server for many users, where two signed-in users' rows stay apart and a device changes hands with one wipe.
import Foundation
import SyncTables
import SyncTablesServer

struct TodoItem: SyncItem {
    var id: String
    var text: String
    var complete: Bool
    var version: String?
    var updatedAt: Date?
}

/// A shopping list entry whose conflicts merge per field: a quantity both devices change keeps both changes.
struct ShoppingItem: SyncItem, SyncRulesProvider {
    var id: String
    var name: String
    var quantity: Int
    var version: String?

    static let syncRules = SyncRules(keys: CodingKeys.self) {
        $0.merge(.quantity, .counter)
    }
}

/// One app installation with its own SQLite file.
struct Device {
    let name: String
    let context: SyncContext
    let todos: SyncTable<TodoItem>

    static func open(_ name: String, in directory: URL, server: URL, policy: ConflictPolicy = .manual) async throws
        -> Device
    {
        let store = try SQLiteStore(path: directory.appendingPathComponent("\(name).sqlite").path)
        let context = try await SyncContext(
            store: store, client: SyncClient(url: server),
            configuration: SyncContext.Configuration(conflictPolicy: policy))
        return Device(name: name, context: context, todos: try await context.table(TodoItem.self))
    }

    func show() async throws {
        let items = try await todos.query().order(Column("text")).fetchAll()
        let pending = try await context.pendingOperationCount()
        print("    \(name): \(items.count) item(s), \(pending) pending operation(s)")
        for item in items {
            print(
                "      [\(item.complete ? "x" : " ")] \(item.text)  (id \(item.id.prefix(8)), version \(item.version ?? "-"))"
            )
        }
    }

    func edit(_ id: String, _ change: (inout TodoItem) -> Void) async throws {
        guard var item = try await todos.lookup(id: id) else { return }
        change(&item)
        try await todos.update(item)
    }
}

func step(_ number: Int, _ title: String) {
    print("\n\(number). \(title)")
}

// MARK: A server for many users

/// The signed-in user of one device: what its client's `requestDecorator` reads before every request.
actor SignedInUser {
    private(set) var token: String

    init(token: String) {
        self.token = token
    }

    func signIn(token: String) {
        self.token = token
    }
}

/// A device whose requests carry its signed-in user's token.
func signedInDevice(_ name: String, in directory: URL, server: URL, user: SignedInUser) async throws -> Device {
    let store = try SQLiteStore(path: directory.appendingPathComponent("\(name).sqlite").path)
    let client = SyncClient(
        configuration: SyncClient.Configuration(
            url: server,
            requestDecorator: { request in request.headers["Authorization"] = "Bearer \(await user.token)" }))
    let context = try await SyncContext(store: store, client: client)
    return Device(name: name, context: context, todos: try await context.table(TodoItem.self))
}

/// Two users on one server with declared tables: their rows stay apart, and a device changes hands with one
/// wipe.
func multiUserDemo(in directory: URL) async throws {
    let keyPath = directory.appendingPathComponent("dev-key.json").path
    let key = try DevelopmentKey.loadOrCreate(at: keyPath)
    var configuration = SyncServerConfiguration(
        storage: .file(path: directory.appendingPathComponent("multi.sqlite").path))
    configuration.declaredTables = try TableDeclarations(
        yaml: """
            tables:
              TodoItem:
                access: owner          # rows belong to the token's subject
                ownerColumn: userId    # filled in by the server from the token
                columns: { text: string, complete: bool }
            """)
    configuration.authentication = .jwt(JWTVerification(keys: .file(path: keyPath)))
    let server = try await SyncServer(configuration: configuration)
    try await server.start()
    defer { Task { try? await server.stop() } }
    guard let url = server.url else { return }
    print("    a second sync-server on \(url.absoluteString): declared tables, tokens verified with a dev key")

    let aliceToken = try await key.token(subject: "alice")
    let bobToken = try await key.token(subject: "bob")
    let phoneUser = SignedInUser(token: aliceToken)
    let phone = try await signedInDevice("alice-phone", in: directory, server: url, user: phoneUser)
    let laptop = try await signedInDevice(
        "bob-laptop", in: directory, server: url, user: SignedInUser(token: bobToken))

    let secret = try await phone.todos.insert(TodoItem(id: "", text: "Alice: buy a present for Bob", complete: false))
    try await phone.todos.insert(TodoItem(id: "", text: "Alice: book the restaurant", complete: false))
    try await laptop.todos.insert(TodoItem(id: "", text: "Bob: renew the passport", complete: false))
    try await phone.context.push()
    try await laptop.context.push()
    try await phone.todos.pull(queryId: "all-todos")
    try await laptop.todos.pull(queryId: "all-todos")
    try await phone.show()
    try await laptop.show()

    var peek = TransportRequest(method: .get, url: url.appendingPathComponent("tables/TodoItem/\(secret.id)"))
    peek.headers["Authorization"] = "Bearer \(bobToken)"
    let answer = try await SyncClient(url: url).send(peek)
    print("    Bob asks for Alice's item by id: HTTP \(answer.status) (another user's row does not exist for him)")

    step(11, "Alice signs out of the phone and Bob signs in on it: one wipe, then a pull of Bob's rows")
    try await phone.context.wipe()
    await phoneUser.signIn(token: bobToken)
    let pulled = try await phone.todos.pull(queryId: "all-todos")
    print("    the phone pulled \(pulled.received) record(s) for Bob; nothing of Alice's is left on it")
    try await phone.show()

    try await phone.context.close()
    try await laptop.context.close()
    try await server.stop()
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("synctables-demo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let server = try await SyncServer(
    configuration: SyncServerConfiguration(
        storage: .file(path: directory.appendingPathComponent("server.sqlite").path), softDelete: .allTables))
try await server.start()
guard let serverURL = server.url else {
    print("the server did not report its address")
    exit(1)
}
print("SyncTables demo — sync-server listening on \(serverURL.absoluteString) (SQLite, soft delete on)")

do {
    let phone = try await Device.open("phone", in: directory, server: serverURL)
    var laptop = try await Device.open("laptop", in: directory, server: serverURL)

    step(1, "The phone works offline: three inserts, an update and a delete, all queued durably")
    let milk = try await phone.todos.insert(TodoItem(id: "", text: "Buy milk", complete: false))
    let bread = try await phone.todos.insert(TodoItem(id: "", text: "Buy bread", complete: false))
    let call = try await phone.todos.insert(TodoItem(id: "", text: "Call the plumber", complete: false))
    try await phone.edit(milk.id) { $0.complete = true }
    try await phone.todos.delete(bread)
    try await phone.show()
    print("    (insert+update collapsed into one insert; insert+delete cancelled each other)")

    step(2, "The phone pushes its queue, in order")
    let pushed = try await phone.context.push()
    print("    pushed \(pushed.pushedOperations) operation(s); rows now carry the server's version")
    try await phone.show()

    step(3, "The laptop pulls incrementally (query id \"all-todos\")")
    let firstPull = try await laptop.todos.pull(queryId: "all-todos")
    print(
        "    received \(firstPull.received) record(s) in \(firstPull.requests) request(s); token \(firstPull.deltaToken?.iso8601 ?? "-")"
    )
    try await laptop.show()

    step(4, "Both edit the plumber item offline; the phone pushes first")
    try await phone.edit(call.id) { $0.text = "Call the plumber at 9" }
    try await laptop.edit(call.id) { $0.text = "Call the plumber tomorrow" }
    try await phone.context.push()
    print("    phone pushed \"Call the plumber at 9\"")

    step(5, "The laptop's push meets a conflict (HTTP 412) and resolves it: server wins")
    do {
        try await laptop.context.push()
    } catch SyncError.pushFailed(let failure) {
        for error in failure.errors {
            print("    conflict: \(error)")
            print("      local:  \(try error.clientItem(as: TodoItem.self)?.text ?? "-")")
            let server = try error.serverItem(as: TodoItem.self)
            print("      server: \(server?.text ?? "-")")
            if let server { try await error.cancelAndUpdateItem(server) }
        }
    }
    try await laptop.show()

    step(6, "Another conflict, this time with the client-wins policy: the laptop's edit overwrites")
    try await phone.edit(call.id) { $0.complete = true }
    try await phone.context.push()
    // The conflict policy is part of the context's configuration: the laptop app opens its store again with it.
    try await laptop.context.close()
    laptop = try await Device.open("laptop", in: directory, server: serverURL, policy: .clientWins)
    try await laptop.edit(call.id) { $0.text = "Plumber: cancelled" }
    let clientWins = try await laptop.context.push()
    print("    resolved \(clientWins.resolvedConflicts) conflict(s) by retrying against the server's version")
    try await phone.todos.pull(queryId: "all-todos")
    try await phone.show()

    step(7, "The phone queues a change, then tries to purge its table")
    try await phone.todos.insert(TodoItem(id: "", text: "Water the plants", complete: false))
    do {
        try await phone.todos.purge()
    } catch SyncError.pendingOperations(let table) {
        print("    purge refused: table \(table) has pending operations")
    }
    let purge = try await phone.todos.purge(force: true)
    print("    forced purge removed \(purge.rows) row(s), \(purge.operations) operation(s), \(purge.tokens) token(s)")
    try await phone.show()

    step(8, "The phone pulls again: the token was reset, so everything comes back")
    let again = try await phone.todos.pull(queryId: "all-todos")
    print("    received \(again.received) record(s)")
    try await phone.show()

    step(9, "Both change the same shopping item offline; the laptop's push merges it field by field")
    let phoneShopping = try await phone.context.table(ShoppingItem.self)
    let laptopShopping = try await laptop.context.table(ShoppingItem.self)
    try await phoneShopping.insert(ShoppingItem(id: "eggs", name: "Eggs", quantity: 10))
    try await phone.context.push()
    try await laptopShopping.pull()
    try await phoneShopping.update(ShoppingItem(id: "eggs", name: "Eggs", quantity: 8, version: nil))
    try await phone.context.push()
    print("    phone: used 2 eggs (10 → 8) and pushed")
    try await laptopShopping.update(ShoppingItem(id: "eggs", name: "Free-range eggs", quantity: 7, version: nil))
    print("    laptop: used 3 eggs (10 → 7) and renamed them, offline")
    try await laptop.context.push()
    if let merged = try await laptopShopping.lookup(id: "eggs") {
        print("    after the laptop's push: \(merged.name), \(merged.quantity) left (no change of either device lost)")
    }
    for entry in try await laptop.context.history(table: "ShoppingItem", limit: 3) where entry.conflict != nil {
        print("    history: \(entry.message ?? "")")
    }

    try await phone.context.close()
    try await laptop.context.close()
    try await server.stop()

    step(10, "A server for many users: declared tables, signed-in users, rows that stay apart")
    try await multiUserDemo(in: directory)
    print("\nDone.")
} catch {
    try? await server.stop()
    print("demo failed: \(error)")
    exit(1)
}
