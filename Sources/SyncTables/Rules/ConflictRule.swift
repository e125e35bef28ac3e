/// How a table resolves one ``ConflictKind`` of conflict without asking the app.
///
/// | rule | update/update, insert/insert | update/delete | delete/update |
/// |---|---|---|---|
/// | ``merge`` | per field (``FieldMergeRule``) | like ``ask`` | like ``ask`` |
/// | ``serverWins`` | take the server's item | the deletion stands: the local row goes | the server's item comes back |
/// | ``clientWins`` | send the local item over the server's | the item is created again (restored where the server soft-deletes) | the delete is sent again |
/// | ``ask`` | the ``ConflictPolicy`` decides | the ``ConflictPolicy`` decides | the ``ConflictPolicy`` decides |
public enum ConflictRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Merge field by field, with the declared ``FieldMergeRule``s.
    case merge
    /// The server's side stands.
    case serverWins
    /// The local side is sent again over the server's.
    case clientWins
    /// The context's ``ConflictPolicy`` decides (for ``ConflictPolicy/manual``: the error is recorded).
    case ask

    /// The rule's name, e.g. `serverWins`.
    public var description: String { rawValue }
}
