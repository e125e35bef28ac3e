/// A type that can live in a sync table: `Codable`, `Sendable` and identified by a string id.
///
/// Declare `version`, `createdAt`, `updatedAt` or `deleted` properties to receive the server's system
/// properties; they are optional and filled in by push and pull.
///
/// ```swift
/// struct TodoItem: SyncItem {
///     var id: String
///     var text: String
///     var complete: Bool
///     var version: String?
///     var updatedAt: Date?
/// }
/// ```
public protocol SyncItem: Codable, Sendable, Identifiable where ID == String {}
