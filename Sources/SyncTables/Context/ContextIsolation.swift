/// The executor of a ``SyncContext`` whose store is not an actor: an actor with no state of its own, whose
/// default executor the context borrows (and keeps alive by holding the actor).
actor ContextIsolation {}
