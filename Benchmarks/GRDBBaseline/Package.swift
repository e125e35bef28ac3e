// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A benchmark-only package: it builds GRDB, so CI and the main package never do. It depends on the
// repository's package by path; SwiftPM names a path dependency after its directory.
let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "GRDBBaseline",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: repository.path),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "grdb-baseline",
            dependencies: [
                .product(name: "SyncTables", package: repository.lastPathComponent),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
