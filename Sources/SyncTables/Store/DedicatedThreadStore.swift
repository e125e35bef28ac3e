/// A store that runs every transaction body on a thread of its own, never on the shared pool.
///
/// Such a body may block while it waits for work another task is still preparing: the context streams a
/// large `insert(contentsOf:)` into one transaction this way (see ``ChunkChannel``). A store on the shared
/// pool must not be asked to: with every pool thread blocked, the task that prepares the work could never
/// run.
package protocol DedicatedThreadStore: LocalStore {}
