@_spi(SyncTablesTools) import SyncTablesCore

/// Where the next page of an incremental pull starts, and how each page moves it.
///
/// Against a server that advertises keyset pulls (``ServerCapabilities/keysetPull``) the position is the
/// last record's `(updatedAt, id)` and the next page asks for the records after it, so records sharing one
/// `updatedAt` are neither skipped nor read twice however many there are. Otherwise it is the plain
/// watermark (see the *Wire protocol* article, section *Incremental pull*): the newest `updatedAt`, with
/// `$skip` through the records that share it.
///
/// The first request of a pull from a watermark (or from nothing) is always a plain one, so keysets are used
/// only once a response advertised them. A keyset page whose response no longer advertises them (the server
/// was replaced by one without the extension) is dropped, and the pull goes on from the same time with plain
/// requests.
struct IncrementalCursor {
    /// The position the committed pages reached.
    private(set) var token: DeltaToken
    /// Plain requests: records read at the watermark since it last moved.
    private var skip = 0
    /// Cleared for the rest of the pull once a keyset page came back without the capability.
    private var keysetAllowed = true

    init(token: DeltaToken) {
        self.token = token
    }

    /// Whether the next request is a keyset request.
    var usesKeyset: Bool { keysetAllowed && token.itemId != nil }

    /// The next page's request.
    func request(_ plan: PullPlan) throws(SyncError) -> TableQuery {
        if keysetAllowed, let id = token.itemId {
            return try plan.keysetRequest(afterTime: token.updatedAt, id: id)
        }
        return try plan.incrementalRequest(since: token.updatedAt, skip: skip)
    }

    /// What to do with a page.
    struct Step: Equatable {
        /// Whether to apply the page's records (`false`: drop them, the next request reads them again).
        var applies: Bool
        /// The token to commit with the page, when it moved.
        var token: DeltaToken?
    }

    /// Moves past a non-empty page that answered ``request(_:)``.
    mutating func advance(past page: RemotePage) -> Step {
        let keysetRequested = usesKeyset
        if keysetAllowed, page.capabilities.keysetPull,
            let position = page.items.last.flatMap(DeltaToken.init(position:)), position.isAfter(token)
        {
            (token, skip) = (position, 0)
            return Step(applies: true, token: position)
        }
        if keysetRequested {
            keysetAllowed = false
            skip = 0
            return Step(applies: false, token: nil)
        }
        // Records skipped for pending operations count too, or a lone skipped record at the watermark
        // would be fetched forever.
        let newest = page.items.compactMap { $0["updatedAt"]?.stringValue.flatMap(Timestamp.init(parsing:)) }.max()
        if let newest, newest > token.updatedAt {
            (token, skip) = (DeltaToken(updatedAt: newest), 0)
            return Step(applies: true, token: token)
        }
        skip += page.items.count
        return Step(applies: true, token: nil)
    }
}
