import NIOFileSystem
import SyncTablesCore

/// Where the blob endpoints live and when a configuration offers them (see <doc:Blobs>).
enum BlobSettings {
    /// The blob endpoints' path: `HEAD`, `PUT` and `GET` on `/sync/blobs/<sha256>`.
    static let path = "/sync/blobs"

    /// Whether `path` is one of the blob endpoints'.
    static func isBlobPath(_ path: String) -> Bool {
        path == Self.path || path.hasPrefix(Self.path + "/")
    }

    /// The capabilities document's `blobs` entry; `nil` when the configuration offers no blobs.
    static func capability(_ configuration: SyncServerConfiguration) -> JSONValue? {
        guard offersBlobs(configuration) else { return nil }
        return .object(JSONObject(["path": .string(path), "maxBytes": .integer(configuration.maxBlobBytes)]))
    }

    /// Whether blobs are served: a size limit above zero (every storage has a place to keep them). With
    /// declared tables, a blob follows the access rules of the rows that reference it (``BlobAccess``).
    static func offersBlobs(_ configuration: SyncServerConfiguration) -> Bool {
        configuration.maxBlobBytes > 0
    }

    /// Opens the blob storage a configuration asks for; `nil` when it offers no blobs.
    ///
    /// Blobs go to ``SyncServerConfiguration/blobDirectory`` when set, else into the PostgreSQL database the
    /// tables live in (`tables`' connection pool), else beside a SQLite database file (`<file>.blobs`), else
    /// (in memory) to a temporary directory removed when the server stops.
    static func open(_ configuration: SyncServerConfiguration, beside tables: any TableStorage) async throws
        -> (any BlobStorage)?
    {
        guard offersBlobs(configuration) else { return nil }
        if let directory = configuration.blobDirectory {
            return try await DirectoryBlobStorage.open(at: FilePath(directory))
        }
        switch configuration.storage {
        case .file(let path): return try await DirectoryBlobStorage.open(at: FilePath(path + ".blobs"))
        case .inMemory, .store: return try await DirectoryBlobStorage.temporary()
        case .postgres(let database):
            guard let postgres = tables as? PostgresTableStorage else { return nil }
            return try await PostgresBlobStorage.open(
                client: postgres.client, schema: database.schema, logger: configuration.logger)
        }
    }
}
