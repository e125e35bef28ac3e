// swift-tools-version: 6.1
import PackageDescription

// The library an app adds: what it needs and nothing more (swift-log, swift-metrics, swift-crypto and the
// system's SQLite, curl and zlib; Yams only for the configuration-file product). The reference server, the
// `synctables` command line, the benchmarks, the demos and the test suites live in the package in `Tools/`,
// which depends on this one by path.
//
// One SQLite engine per build: libsqlite3 and libsqlcipher export the same symbols, so linking both
// silently routes every call to whichever comes first. `SystemSQLite` (default) links libsqlite3;
// `swift build --traits SQLCipher` replaces the default set and links libsqlcipher instead.

let sqliteEngine: [Target.Dependency] = [
    .target(name: "CSQLite", condition: .when(traits: ["SystemSQLite"])),
    .target(name: "CSQLCipher", condition: .when(traits: ["SQLCipher"])),
]

var dependencies: [Package.Dependency] = [
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    // Attachments: SHA-256 names of blob files and, under SQLCipher, their AES-GCM encryption. On Apple
    // platforms it is CryptoKit; elsewhere the same API over BoringSSL.
    .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
    // SyncTablesConfiguration only: YAML and JSON sync configuration files, with line numbers for errors.
    .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
]
// `swift package generate-documentation` (DocC), a command plugin: resolved only when building the docs
// (SYNCTABLES_DOCS=1), so an app that adds SyncTables never fetches it.
if Context.environment["SYNCTABLES_DOCS"] != nil {
    dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

let package = Package(
    name: "SyncTables",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "SyncTables", targets: ["SyncTables"]),
        .library(name: "SyncTablesSQLCipher", targets: ["SyncTablesSQLCipher"]),
        .library(name: "SyncTablesStoreConformance", targets: ["SyncTablesStoreConformance"]),
        .library(name: "SyncTablesConfiguration", targets: ["SyncTablesConfiguration"]),
        // The JSON, OData filter and time types the library is built on, the filter semantics and the wire
        // format client and server share (also re-exported by SyncTables).
        .library(name: "SyncTablesCore", targets: ["SyncTablesCore"]),
        // The thin SQLite layer, for the reference server and the benchmarks in Tools/ (its API is SPI).
        .library(name: "SyncTablesSQLite", targets: ["SyncTablesSQLite"]),
    ],
    traits: [
        .trait(name: "SystemSQLite", description: "Run every store on the system libsqlite3 (default)."),
        .trait(
            name: "SQLCipher",
            description: "Run every store on libsqlcipher and build EncryptedSQLiteStore. Replaces SystemSQLite."
        ),
        .default(enabledTraits: ["SystemSQLite"]),
    ],
    dependencies: dependencies,
    targets: [
        // MARK: C libraries of the system (exactly one SQLite engine is linked per build)
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
        // What client and server share: values, filter semantics, the wire format (gzip through zlib).
        .target(name: "SyncTablesCore", dependencies: ["CZlib"]),
        .target(name: "SyncTablesSQLite", dependencies: sqliteEngine),
        .target(
            name: "SyncTables",
            dependencies: [
                "SyncTablesCore",
                "SyncTablesSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
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

        // MARK: Tests (the suites that need a server, a store file or a child process are in Tools/)
        .testTarget(name: "SyncTablesCoreTests", dependencies: ["SyncTablesCore"]),
    ],
    swiftLanguageModes: [.v6]
)
