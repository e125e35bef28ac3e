import Foundation

/// One push at a time per store file, across processes: whoever pushes holds a lease recorded in the store
/// (a row `pushLease` in `__config`: its owner and expiry, see ``Holder``), taken and renewed inside write transactions.
///
/// Two pushers never send the same operation: the second one (another context in this process, an app
/// extension, `synctables push`) finds the lease held and fails with ``SyncError/pushInProgress(owner:)``
/// before it sends anything. A pusher renews its lease with each operation it takes from the queue, so a
/// lease only expires when its owner stopped (killed, say, mid-push); then the next pusher takes it over.
/// It does so at once when the owner's process is known to be gone (its recorded pid names no process on
/// this machine), so a pusher restarted after a crash does not wait for the expiry.
///
/// The clock is injectable, so expiry can be tested without waiting.
struct PushLease: Sendable {
    /// Who holds a lease: names the process, so the error tells a user which one is pushing.
    let owner: String
    /// How long a lease lasts after it was taken or last renewed.
    let duration: Duration
    /// The current time.
    let clock: @Sendable () -> Date

    /// A lease as stored.
    struct Holder: SingleSystemRecord, Equatable {
        static var table: String { SystemTables.config }
        /// The row's id.
        static let id = "pushLease"

        let owner: String
        /// Milliseconds since 1970.
        let expires: Int64

        init(owner: String, expires: Int64) {
            self.owner = owner
            self.expires = expires
        }

        var row: JSONObject {
            ["id": .string(Self.id), "owner": .string(owner), "expires": .integer(expires)]
        }

        init(_ row: SystemRow) throws(SyncError) {
            self.init(owner: try row.string("owner"), expires: Int64(try row.integer("expires")))
        }
    }

    /// A lease for this process, with a random part so two contexts in one process are two owners.
    init(duration: Duration, clock: @escaping @Sendable () -> Date = { Date() }) {
        let process = ProcessInfo.processInfo
        owner = "\(process.processName) (pid \(process.processIdentifier), \(ItemID.generate().prefix(8)))"
        self.duration = duration
        self.clock = clock
    }

    /// A lease for a given owner (tests).
    init(owner: String, duration: Duration, clock: @escaping @Sendable () -> Date) {
        self.owner = owner
        self.duration = duration
        self.clock = clock
    }

    /// Takes the lease, or renews it when this owner holds it, in the caller's write transaction.
    ///
    /// Throws ``SyncError/pushInProgress(owner:)`` when another owner holds a lease that has not expired.
    func take(in transaction: any StoreTransaction) throws {
        let now = Self.milliseconds(clock())
        if let holder = try Self.holder(in: transaction), holder.owner != owner, holder.expires > now,
            !Self.processIsGone(owner: holder.owner)
        {
            throw SyncError.pushInProgress(owner: holder.owner)
        }
        let expires = now + duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        try Holder(owner: owner, expires: expires).save(in: transaction)
    }

    /// Gives the lease up when this owner holds it.
    func release(in transaction: any StoreTransaction) throws {
        guard try Self.holder(in: transaction)?.owner == owner else { return }
        try Holder.remove(in: transaction)
    }

    /// The lease recorded in the store, or `nil`.
    static func holder(in transaction: any StoreTransaction) throws -> Holder? {
        try Holder.stored(in: transaction)
    }

    /// Whether the process an owner names (`… (pid N, …)`) has ended. `false` when the owner names no pid or
    /// the process cannot be asked about (another user's or sandbox's process is taken to be alive).
    static func processIsGone(owner: String) -> Bool {
        guard let start = owner.range(of: "(pid ")?.upperBound,
            let pid = Int32(owner[start...].prefix { $0.isNumber }), pid > 0
        else { return false }
        return kill(pid, 0) == -1 && errno == ESRCH
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
