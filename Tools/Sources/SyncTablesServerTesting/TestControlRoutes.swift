import Hummingbird
@_spi(SyncTablesTools) import SyncTables
import SyncTablesServer

/// The HTTP face of ``TestControls`` under `/__test` (only served with test controls enabled):
///
/// | Request | Effect |
/// |---|---|
/// | `POST /__test/faults` `{"method","path","prefix","occurrence","action","status","body","milliseconds"}` | add a fault |
/// | `DELETE /__test/faults` | remove all faults |
/// | `GET /__test/requests` | the request log |
/// | `DELETE /__test/requests` | clear the request log |
/// | `POST /__test/seed/{table}` with an array of items | store rows verbatim |
/// | `POST /__test/reset` | faults, log and every row gone (open change feeds get a `reset`) |
/// | `POST /__test/feeds/drop` | close every open change feed's connection at once; answers `{"dropped": n}` |
///
/// `action` is `respond` (with `status`, optional `body` and `headers`), `drop`, `lostResponse` or `delay` (with
/// `milliseconds`); `occurrence` is the 1-based n-th matching request (default 1), or `null` for every one.
struct TestControlRoutes {
    let controls: TestControls

    func respond(_ request: Request, path: String, body: [UInt8]) async throws -> Response {
        let components = path.split(separator: "/").map(String.init)
        switch (request.method, components.dropFirst().first, components.count) {
        case (.post, "faults", 2):
            let rule = try Self.faultRule(from: try Self.object(from: body))
            await controls.addFault(rule)
            return JSONResponse.json(.object(JSONObject(["added": .bool(true)])), status: .created)
        case (.delete, "faults", 2):
            await controls.clearFaults()
            return JSONResponse.json(.object(JSONObject()), status: .ok)
        case (.get, "requests", 2):
            return JSONResponse.json(.array(await controls.requests().map(\.json)), status: .ok)
        case (.delete, "requests", 2):
            await controls.clearRequests()
            return JSONResponse.json(.object(JSONObject()), status: .ok)
        case (.post, "seed", 3):
            guard case .array(let values) = try WireJSON.parse(body) else {
                throw ServerError(.badRequest, "Seed with a JSON array of items.")
            }
            let items = try values.map { value throws(ServerError) -> JSONObject in
                guard case .object(let item) = value else {
                    throw ServerError(.badRequest, "Every seeded item must be a JSON object.")
                }
                return item
            }
            let stored = try await controls.seed(table: components[2], items: items)
            return JSONResponse.json(.array(stored.map(JSONValue.object)), status: .created)
        case (.post, "reset", 2):
            try await controls.reset()
            return JSONResponse.json(.object(JSONObject()), status: .ok)
        case (.post, "feeds", 3) where components[2] == "drop":
            let dropped = await controls.dropChangeFeeds()
            return JSONResponse.json(.object(JSONObject(["dropped": .integer(Int64(dropped))])), status: .ok)
        default:
            throw ServerError(.notFound, "Unknown test control \(request.method) \(path).")
        }
    }

    /// Parses a request body that must be one JSON object (with the table routes' messages).
    static func object(from bytes: [UInt8]) throws(ServerError) -> JSONObject {
        guard !bytes.isEmpty else {
            throw ServerError(.badRequest, "The request body must be a JSON object, but it is empty.")
        }
        guard case .object(let object) = try WireJSON.parse(bytes) else {
            throw ServerError(.badRequest, "The request body must be a JSON object.")
        }
        return object
    }

    /// Reads a fault rule from its JSON form.
    static func faultRule(from object: JSONObject) throws(ServerError) -> FaultRule {
        guard case .string(let path)? = object["path"] else {
            throw ServerError(.badRequest, "A fault needs a string 'path'.")
        }
        var method: String?
        if case .string(let value)? = object["method"] { method = value }
        let prefix = object["prefix"] == .bool(true)
        var occurrence: Int? = 1
        switch object["occurrence"] {
        case .integer(let value)?:
            guard value >= 1 else { throw ServerError(.badRequest, "'occurrence' counts from 1.") }
            occurrence = Int(value)
        case .null?: occurrence = nil
        case nil: occurrence = 1
        case _?: throw ServerError(.badRequest, "'occurrence' must be an integer or null.")
        }
        let action: FaultAction
        switch object["action"] {
        case .string("respond")?:
            guard case .integer(let status)? = object["status"], (100...599).contains(status) else {
                throw ServerError(.badRequest, "A 'respond' fault needs a 'status' between 100 and 599.")
            }
            var headers: [String: String] = [:]
            if case .object(let fields)? = object["headers"] {
                for (name, value) in fields.properties {
                    guard case .string(let text) = value else {
                        throw ServerError(.badRequest, "A 'respond' fault's 'headers' values must be strings.")
                    }
                    headers[name] = text
                }
            }
            action = .respond(status: Int(status), body: object["body"], headers: headers)
        case .string("drop")?:
            action = .dropConnection
        case .string("lostResponse")?:
            action = .lostResponse
        case .string("delay")?:
            guard case .integer(let milliseconds)? = object["milliseconds"], (0...60_000).contains(milliseconds) else {
                throw ServerError(.badRequest, "A 'delay' fault needs 'milliseconds' between 0 and 60000.")
            }
            action = .delay(milliseconds: Int(milliseconds))
        default:
            throw ServerError(.badRequest, "A fault's 'action' is respond, drop, lostResponse or delay.")
        }
        return FaultRule(method: method, path: path, matchesPrefix: prefix, occurrence: occurrence, action: action)
    }
}
