// swift-tools-version: 6.1
import PackageDescription

// One SQLite engine per build: libsqlite3 and libsqlcipher export the same symbols, so linking both
// silently routes every call to whichever comes first. `SystemSQLite` (default) links libsqlite3;
// `swift build --traits SQLCipher` replaces the default set and links libsqlcipher instead.
/// Spawning child processes (tests and benchmarks only).
let subprocess: [Target.Dependency] = [
    .product(name: "Subprocess", package: "swift-subprocess"),
    .product(name: "SystemPackage", package: "swift-system"),
]

let sqliteEngine: [Target.Dependency] = [
    .target(name: "CSQLite", condition: .when(traits: ["SystemSQLite"])),
    .target(name: "CSQLCipher", condition: .when(traits: ["SQLCipher"])),
]

let package = Package(
    name: "SyncTables",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "SyncTables", targets: ["SyncTables"]),
        .library(name: "SyncTablesSQLCipher", targets: ["SyncTablesSQLCipher"]),
        .library(name: "SyncTablesStoreConformance", targets: ["SyncTablesStoreConformance"]),
        .library(name: "SyncTablesConfiguration", targets: ["SyncTablesConfiguration"]),
        .library(name: "SyncTablesServer", targets: ["SyncTablesServer"]),
        .executable(name: "sync-server", targets: ["sync-server"]),
        .executable(name: "synctables", targets: ["synctables"]),
        .executable(name: "sync-bench", targets: ["sync-bench"]),
        .executable(name: "todo-demo", targets: ["TodoDemo"]),
        .executable(name: "engine-demo", targets: ["EngineDemo"]),
    ],
    traits: [
        .trait(name: "SystemSQLite", description: "Run every store on the system libsqlite3 (default)."),
        .trait(
            name: "SQLCipher",
            description: "Run every store on libsqlcipher and build EncryptedSQLiteStore. Replaces SystemSQLite."
        ),
        .default(enabledTraits: ["SystemSQLite"]),
    ],
    dependencies: [
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
        // SyncTablesConfiguration (`synctables sync --config`): YAML and JSON files, with line numbers for errors.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // `swift package generate-documentation` (DocC); a command plugin, never linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: C engines (exactly one is linked per build)
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CSQLCipher",
            pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"]), .brew(["sqlcipher"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // gzip of batch bodies (client) and responses (server), straight from the system's zlib.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),

        // MARK: Libraries
        .target(name: "SyncTablesCore"),
        .target(name: "SyncTablesSQLite", dependencies: sqliteEngine),
        .target(
            name: "SyncTables",
            dependencies: [
                "SyncTablesCore",
                "SyncTablesSQLite",
                "CZlib",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "SyncTablesSQLCipher",
            dependencies: ["SyncTables", "SyncTablesSQLite"] + sqliteEngine
        ),
        .target(name: "SyncTablesStoreConformance", dependencies: ["SyncTables"]),
        // Sync configuration files for apps and `synctables sync`; Yams stays out of the core library.
        .target(
            name: "SyncTablesConfiguration",
            dependencies: [
                "SyncTables",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
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
                "SyncTables",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // Used directly by the server; they come with Hummingbird, declared here to say so.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),

        // MARK: Executables
        .executableTarget(
            name: "sync-server",
            dependencies: [
                "SyncTablesServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "synctables",
            dependencies: [
                "SyncTables",
                "SyncTablesConfiguration",
                "SyncTablesSQLCipher",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "sync-bench",
            dependencies: [
                "SyncTables",
                "SyncTablesSQLCipher",
                "SyncTablesServer",
                "SyncTablesSQLite",
                "SlowLink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ] + sqliteEngine + subprocess
        ),
        .executableTarget(
            name: "TodoDemo",
            dependencies: ["SyncTables", "SyncTablesServer"],
            path: "Samples/TodoDemo"
        ),
        .executableTarget(
            name: "EngineDemo",
            dependencies: ["SyncTables", "SyncTablesServer", .product(name: "Logging", package: "swift-log")],
            path: "Samples/EngineDemo"
        ),

        // MARK: Tests
        // The process the crash-safety tests kill with SIGKILL mid-push and mid-pull (not a product).
        .executableTarget(
            name: "sync-crash-child",
            dependencies: ["SyncTables"],
            path: "Tests/SyncTablesCrashChild"
        ),
        // A second "app" writing to a store file while others use it (the multi-process tests; not a product).
        .executableTarget(
            name: "sync-store-writer",
            dependencies: ["SyncTables", "SyncTablesCore"],
            path: "Tests/SyncTablesStoreWriter"
        ),
        .testTarget(name: "SyncTablesCoreTests", dependencies: ["SyncTablesCore"]),
        .testTarget(
            name: "SyncTablesConfigurationTests",
            dependencies: ["SyncTablesConfiguration", "SyncTables", "SyncTablesServer"]
        ),
        .testTarget(
            name: "SyncTablesTests",
            dependencies: [
                "SyncTables",
                "SyncTablesStoreConformance",
                "SyncTablesServer",
                "SyncTablesSQLite",
                "SlowLink",
                // The transport tests run a small Hummingbird server of their own.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ] + subprocess
        ),
        .testTarget(
            name: "SyncTablesServerTests",
            dependencies: [
                "SyncTablesServer",
                "SyncTables",
                // The SQLite late-commit tests hold the server's database file locked on a connection of their own.
                "SyncTablesSQLite",
                // The readiness probe test cuts the server's link to PostgreSQL.
                "SlowLink",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The late-commit tests hold a transaction open in a database session of their own.
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ] + subprocess
        ),
        .testTarget(
            name: "SyncTablesSQLCipherTests",
            dependencies: [
                "SyncTablesSQLCipher", "SyncTables", "SyncTablesStoreConformance", "SyncTablesServer",
                "SyncTablesSQLite",
            ] + subprocess
        ),
        .testTarget(
            name: "SynctablesCLITests",
            dependencies: [
                "SyncTables", "SyncTablesCore", "SyncTablesServer", "SyncTablesSQLCipher", "SyncTablesSQLite",
                .product(name: "Logging", package: "swift-log"),
            ] + subprocess
        ),
    ],
    swiftLanguageModes: [.v6]
)
