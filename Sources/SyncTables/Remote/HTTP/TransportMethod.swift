/// An HTTP request method, such as `GET` or `PATCH`.
///
/// ```swift
/// let method: TransportMethod = .patch
/// print(method.rawValue)  // "PATCH"
/// ```
public struct TransportMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method token as sent on the request line (upper case for the standard methods).
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`: read a resource.
    public static let get = TransportMethod(rawValue: "GET")
    /// `HEAD`: read a resource's headers only.
    public static let head = TransportMethod(rawValue: "HEAD")
    /// `POST`: create a resource (or undelete one, in the table protocol).
    public static let post = TransportMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = TransportMethod(rawValue: "PUT")
    /// `PATCH`: merge changes into a resource.
    public static let patch = TransportMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = TransportMethod(rawValue: "DELETE")

    /// The method token.
    public var description: String { rawValue }
}
