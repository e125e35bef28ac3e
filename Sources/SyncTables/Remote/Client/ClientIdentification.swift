import Foundation

/// How SyncTables names itself in `User-Agent` and `X-ZUMO-VERSION`.
package enum ClientIdentification {
    /// The library version reported to servers.
    package static let libraryVersion = "0.1.0"

    /// `User-Agent`, e.g. `SyncTables/0.1.0 (lang=Swift; os=Linux; os_version=6.1.0; arch=x86_64)`.
    package static let userAgent = "SyncTables/\(libraryVersion) (\(platformDetails))"

    /// `X-ZUMO-VERSION` in the shape the Azure SDKs use:
    /// `ZUMO/2.0 (lang=Swift; os=Linux; os_version=6.1.0; arch=x86_64; version=SyncTables/0.1.0)`.
    package static let zumoVersion = "ZUMO/2.0 (\(platformDetails); version=SyncTables/\(libraryVersion))"

    private static var platformDetails: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let osVersion = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        return "lang=Swift; os=\(operatingSystem); os_version=\(osVersion); arch=\(architecture)"
    }

    private static var operatingSystem: String {
        #if os(Linux)
            "Linux"
        #elseif os(macOS)
            "macOS"
        #elseif os(iOS)
            "iOS"
        #elseif os(tvOS)
            "tvOS"
        #elseif os(watchOS)
            "watchOS"
        #elseif os(visionOS)
            "visionOS"
        #elseif os(Windows)
            "Windows"
        #else
            "unknown"
        #endif
    }

    private static var architecture: String {
        #if arch(x86_64)
            "x86_64"
        #elseif arch(arm64)
            "arm64"
        #else
            "unknown"
        #endif
    }
}
