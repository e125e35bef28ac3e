// swift-tools-version: 6.1
import PackageDescription

// Everything around the library that an app does not add: the reference server (`sync-server`,
// `SyncTablesServer`), the `synctables` command line, the benchmarks (`sync-bench`), the slow-link proxy,
// the demos and the test suites. It depends on the library in the folder above by path, so the library's
// own package stays light.
//
// The SQLite engine follows this package's traits: `swift build --traits SQLCipher` here builds the library
// on libsqlcipher too (one engine per build).

/// Spawning child processes (tests and benchmarks only).
let subprocess: [Target.Dependency] = [
    .product(name: "Subprocess", package: "swift-subprocess"),
    .product(name: "SystemPackage", package: "swift-system"),
]

let syncTables = Target.Dependency.product(name: "SyncTables", package: "SyncTables")
let syncTablesCore = Target.Dependency.product(name: "SyncTablesCore", package: "SyncTables")
let syncTablesSQLite = Target.Dependency.product(name: "SyncTablesSQLite", package: "SyncTables")
let syncTablesSQLCipher = Target.Dependency.product(name: "SyncTablesSQLCipher", package: "SyncTables")
let storeConformance = Target.Dependency.product(name: "SyncTablesStoreConformance", package: "SyncTables")
let configuration = Target.Dependency.product(name: "SyncTablesConfiguration", package: "SyncTables")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "SyncTablesTools",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "SyncTablesServer", targets: ["SyncTablesServer"]),
        // The server's test controls (faults, request log, seeding), as Hummingbird ships HummingbirdTesting.
        .library(name: "SyncTablesServerTesting", targets: ["SyncTablesServerTesting"]),
        .executable(name: "sync-server", targets: ["sync-server"]),
        .executable(name: "synctables", targets: ["synctables"]),
        .executable(name: "sync-bench", targets: ["sync-bench"]),
        .executable(name: "todo-demo", targets: ["TodoDemo"]),
        .executable(name: "engine-demo", targets: ["EngineDemo"]),
    ],
    traits: [
        .trait(name: "SystemSQLite", description: "Build the library on the system libsqlite3 (default)."),
        .trait(name: "SQLCipher", description: "Build the library on libsqlcipher. Replaces SystemSQLite."),
        .default(enabledTraits: ["SystemSQLite"]),
    ],
    dependencies: [
        .package(
            name: "SyncTables", path: "..",
            traits: [
                .trait(name: "SystemSQLite", condition: .when(traits: ["SystemSQLite"])),
                .trait(name: "SQLCipher", condition: .when(traits: ["SQLCipher"])),
            ]),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Child processes in the tests and benchmarks (posix_spawn); FilePath for its API.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // The server's PostgreSQL backend (`sync-server --database postgres://…`).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // The server's `--tables` declarations (YAML): the parser the Swift ecosystem uses, on libyaml.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // The server's JWT identity: token parsing, JWKS and signature checks (`sync-server --jwt-keys`).
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        // The server's blob hashes (SHA-256); comes with jwt-kit, declared here because the server uses it.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        // The server's `/metrics` in the Prometheus text format, one registry per server.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // `swift package generate-documentation` (DocC) of SyncTablesServer; a command plugin, never linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Libraries
        // A TCP proxy simulating a slow link, for tests and sync-bench (not a product).
        .target(
            name: "SlowLink",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "SyncTablesServer",
            dependencies: [
                syncTables,
                syncTablesCore,
                syncTablesSQLite,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                logging,
                // Used directly by the server; they come with Hummingbird, declared here to say so.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Blobs: SHA-256 while an upload streams, and files read and written without blocking.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The test controls a test or a development server installs in a SyncServer; the server itself has none.
        .target(
            name: "SyncTablesServerTesting",
            dependencies: [
                "SyncTablesServer",
                syncTables,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),

        // MARK: Executables
        .executableTarget(
            name: "sync-server",
            dependencies: [
                "SyncTablesServer",
                // `--enable-test-controls`, a development feature.
                "SyncTablesServerTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "synctables",
            dependencies: [
                syncTables,
                syncTablesCore,
                configuration,
                syncTablesSQLCipher,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                logging,
            ]
        ),
        .executableTarget(
            name: "sync-bench",
            dependencies: [
                syncTables,
                syncTablesCore,
                syncTablesSQLCipher,
                "SyncTablesServer",
                "SyncTablesServerTesting",
                syncTablesSQLite,
                "SlowLink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                logging,
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ] + subprocess
        ),
        .executableTarget(
            name: "TodoDemo",
            dependencies: [syncTables, "SyncTablesServer"],
            path: "Samples/TodoDemo"
        ),
        .executableTarget(
            name: "EngineDemo",
            dependencies: [syncTables, "SyncTablesServer", "SyncTablesServerTesting", logging],
            path: "Samples/EngineDemo"
        ),

        // MARK: Tests
        // The process the crash-safety tests kill with SIGKILL mid-push and mid-pull (not a product).
        .executableTarget(
            name: "sync-crash-child",
            dependencies: [syncTables],
            path: "Tests/SyncTablesCrashChild"
        ),
        // A second "app" writing to a store file while others use it (the multi-process tests; not a product).
        .executableTarget(
            name: "sync-store-writer",
            dependencies: [syncTables, syncTablesCore],
            path: "Tests/SyncTablesStoreWriter"
        ),
        .testTarget(
            name: "SyncTablesConfigurationTests",
            dependencies: [configuration, syncTables, "SyncTablesServer", "SyncTablesServerTesting"]
        ),
        .testTarget(
            name: "SyncTablesTests",
            dependencies: [
                syncTables,
                syncTablesCore,
                storeConformance,
                "SyncTablesServer",
                "SyncTablesServerTesting",
                syncTablesSQLite,
                "SlowLink",
                // The transport tests run a small Hummingbird server of their own.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The streaming tests watch the server's connections close, and drop them.
                .product(name: "NIOCore", package: "swift-nio"),
                logging,
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Attachment and blob client tests name bytes by a SHA-256 of their own.
                .product(name: "Crypto", package: "swift-crypto"),
            ] + subprocess
        ),
        .testTarget(
            name: "SyncTablesServerTests",
            dependencies: [
                "SyncTablesServer",
                "SyncTablesServerTesting",
                syncTables,
                syncTablesCore,
                // The SQLite late-commit tests hold the server's database file locked on a connection of their own.
                syncTablesSQLite,
                // The readiness probe test cuts the server's link to PostgreSQL.
                "SlowLink",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The change feed tests read event streams as they arrive, with SwiftNIO's HTTP/1 client codec.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The late-commit tests hold a transaction open in a database session of their own.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The identity tests sign tokens of every algorithm and serve a key set over HTTP.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The blob tests name what they upload by its SHA-256.
                .product(name: "Crypto", package: "swift-crypto"),
            ] + subprocess
        ),
        .testTarget(
            name: "SyncTablesSQLCipherTests",
            dependencies: [syncTablesSQLCipher, syncTables, storeConformance, "SyncTablesServer", syncTablesSQLite]
                + subprocess
        ),
        .testTarget(
            name: "SynctablesCLITests",
            dependencies: [
                syncTables, syncTablesCore, "SyncTablesServer", "SyncTablesServerTesting", syncTablesSQLCipher,
                syncTablesSQLite, logging,
            ] + subprocess
        ),
    ],
    swiftLanguageModes: [.v6]
)
