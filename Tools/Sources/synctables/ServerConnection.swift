@_spi(SyncTablesTools) import SyncTables

/// Builds the ``SyncClient`` of commands that talk to a server.
enum ServerConnection {
    static func client(_ options: ServerOptions) throws(CommandFailure) -> SyncClient {
        let url = try options.resolvedURL()
        var headers: [String: String] = [:]
        if let token = options.resolvedToken { headers["X-ZUMO-AUTH"] = token }
        return SyncClient(url: url, headers: headers)
    }
}
