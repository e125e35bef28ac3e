/// A store that runs every transaction body on a thread of its own, never on the shared pool.
///
/// Such a body may block while it waits for work another task is still preparing: the context streams a
/// large `insert(contentsOf:)` into one transaction this way (see ``ChunkChannel``). A store on the shared
/// pool must not be asked to: with every pool thread blocked, the task that prepares the work could never
/// run.
package protocol DedicatedThreadStore: LocalStore {
    /// The JSON text the store keeps for a new row, as
    /// ``StoreTransactionFastPaths/insertNew(table:items:canonicalJSON:queueing:)`` takes it.
    ///
    /// The task that encodes a streamed insert calls it on the shared pool, ahead of the store, so the store's
    /// thread only writes the text; it must not touch the store's state.
    nonisolated func canonicalJSON(forNewRow row: JSONObject) -> [UInt8]
}
