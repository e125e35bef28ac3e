import Foundation
import PostgresNIO

/// A PostgreSQL database for ``SyncServerConfiguration/Storage/postgres(_:)``: where it is, the schema the
/// tables live in, how many connections one server opens, and whether to use TLS.
///
/// ```swift
/// let database = try PostgresStorage(url: "postgres://sync@db.example.com:5432/app?sslmode=require")
/// let configuration = SyncServerConfiguration(storage: .postgres(database))
/// ```
public struct PostgresStorage: Sendable, Hashable {
    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP otherwise.
        case prefer
        /// TLS with the server's certificate verified; the connection fails without it.
        case require
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The user to connect as.
    public var username: String
    /// The user's password, if the server asks for one.
    public var password: String?
    /// The database name; the user's name when `nil`.
    public var database: String?
    /// The schema the tables are created in (created when absent).
    public var schema: String
    /// The most connections one server instance keeps open.
    public var poolSize: Int
    /// Whether to use TLS.
    public var tls: TLSMode

    /// Creates a database description from its parts.
    public init(
        host: String,
        port: Int = 5432,
        username: String,
        password: String? = nil,
        database: String? = nil,
        schema: String = "public",
        poolSize: Int = 20,
        tls: TLSMode = .disable
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.schema = schema
        self.poolSize = poolSize
        self.tls = tls
    }

    /// Reads a URL `postgres://user[:password]@host[:port][/database][?sslmode=disable|prefer|require]`
    /// (also `postgresql://`); percent-escapes in the user, password and database are decoded.
    ///
    /// - Throws: ``PostgresURLError`` when the URL is not of that form.
    public init(url text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text),
            components.scheme == "postgres" || components.scheme == "postgresql"
        else {
            throw PostgresURLError(url: text, reason: "expected postgres://user@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresURLError(url: text, reason: "the URL names no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresURLError(url: text, reason: "the URL names no user (postgres://USER@host/…)")
        }
        let path = components.percentEncodedPath.drop { $0 == "/" }
        var tls = TLSMode.disable
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else {
                throw PostgresURLError(url: text, reason: "unknown parameter '\(item.name)' (only sslmode)")
            }
            guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                throw PostgresURLError(url: text, reason: "sslmode must be disable, prefer or require")
            }
            tls = mode
        }
        self.init(
            host: host,
            port: components.port ?? 5432,
            username: user.removingPercentEncoding ?? user,
            password: components.password.map { $0.removingPercentEncoding ?? $0 },
            database: path.isEmpty ? nil : String(path).removingPercentEncoding,
            tls: tls
        )
    }

    /// The URL without its password, for messages.
    var redactedURL: String {
        "postgres://\(username)@\(host):\(port)/\(database ?? username)"
    }

    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let mode: PostgresConnection.Configuration.TLS
        switch tls {
        case .disable: mode = .disable
        case .prefer: mode = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: mode = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
    }

    func clientConfiguration() throws -> PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS
        switch tls {
        case .disable: mode = .disable
        case .prefer: mode = .prefer(.makeClientConfiguration())
        case .require: mode = .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
        configuration.options.maximumConnections = poolSize
        return configuration
    }
}

/// A PostgreSQL URL that ``PostgresStorage/init(url:)`` cannot use.
public struct PostgresURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL as given.
    public var url: String
    /// What is wrong with it.
    public var reason: String

    /// The message, e.g. "Invalid PostgreSQL URL 'postgres://host': the URL names no user".
    public var description: String { "Invalid PostgreSQL URL '\(url)': \(reason)" }
}
