/// Who may read a ``SyncServer``'s Prometheus metrics at `GET /metrics`.
///
/// The metrics hold counts and latencies, no data and no identities; still, bind the server to a private
/// address or firewall `/metrics` from the internet, or require a token. See <doc:Identity>.
public enum MetricsAccess: Sendable, Hashable {
    /// Anyone who reaches the server (as with `/health` and `/ready`).
    case open
    /// Requests with `Authorization: Bearer <token>`; others get 401.
    case token(String)
    /// Nobody: `/metrics` is routed like any other path.
    case off
}
