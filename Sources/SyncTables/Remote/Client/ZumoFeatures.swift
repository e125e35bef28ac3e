/// The telemetry codes a request carries in `X-ZUMO-FEATURES`; servers ignore them for
/// semantics.
///
/// Codes are written comma-separated in the protocol's fixed order, not in the order they were added.
///
/// ```swift
/// let features: ZumoFeatures = [.incrementalPull, .offline]
/// features.headerValue  // "OL,IP"
/// ```
public struct ZumoFeatures: OptionSet, Sendable, Hashable {
    /// The bit set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `AG`: a generic custom API call.
    public static let genericAPI = ZumoFeatures(rawValue: 1 << 0)
    /// `AJ`: a JSON custom API call.
    public static let jsonAPI = ZumoFeatures(rawValue: 1 << 1)
    /// `TT`: a typed table call.
    public static let typedTable = ZumoFeatures(rawValue: 1 << 2)
    /// `TU`: an untyped table call.
    public static let untypedTable = ZumoFeatures(rawValue: 1 << 3)
    /// `TQ`: a table read built from a query object.
    public static let queryObject = ZumoFeatures(rawValue: 1 << 4)
    /// `TR`: a table read from a raw query string.
    public static let queryString = ZumoFeatures(rawValue: 1 << 5)
    /// `QS`: the request carries additional query parameters.
    public static let additionalQueryParameters = ZumoFeatures(rawValue: 1 << 6)
    /// `OC`: a conditional request (`If-Match`).
    public static let conditional = ZumoFeatures(rawValue: 1 << 7)
    /// `OL`: a request issued by offline sync (push or pull).
    public static let offline = ZumoFeatures(rawValue: 1 << 8)
    /// `LH`: a read of an absolute link (for example a `rel=next` page).
    public static let absoluteLink = ZumoFeatures(rawValue: 1 << 9)
    /// `IP`: an incremental pull (a query id was given).
    public static let incrementalPull = ZumoFeatures(rawValue: 1 << 10)
    /// `RT`: a token refresh.
    public static let refreshToken = ZumoFeatures(rawValue: 1 << 11)

    /// Every code in the order it is written.
    private static let orderedCodes: [(ZumoFeatures, String)] = [
        (.genericAPI, "AG"), (.jsonAPI, "AJ"), (.typedTable, "TT"), (.untypedTable, "TU"),
        (.queryObject, "TQ"), (.queryString, "TR"), (.additionalQueryParameters, "QS"), (.conditional, "OC"),
        (.offline, "OL"), (.absoluteLink, "LH"), (.incrementalPull, "IP"), (.refreshToken, "RT"),
    ]

    /// The header value, e.g. `"TQ,OL,IP"`; empty for the empty set.
    public var headerValue: String {
        Self.orderedCodes.filter { contains($0.0) }.map(\.1).joined(separator: ",")
    }
}
