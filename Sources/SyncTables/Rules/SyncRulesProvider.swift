/// An item type that declares its table's ``SyncRules``.
///
/// ``SyncContext/table(_:named:dateProperties:)`` stores the rules with the table when it opens it, so
/// pushes that never see the type (the engine's, `synctables push`) follow them too.
public protocol SyncRulesProvider: SyncItem {
    /// The table's rules.
    static var syncRules: SyncRules { get }
}
