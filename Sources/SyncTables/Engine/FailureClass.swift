/// What a failed request means for the ``SyncEngine``.
enum FailureClass: Sendable, Hashable {
    /// Worth trying again later: transport errors, timeouts, 408, 429, 500, 502, 503, 504.
    case transient
    /// Will fail the same way every time: 400, 403, 404 and 410 on writes, 405, 413, 422, and the like.
    case permanent
    /// 409 or 412: the conflict policy decides.
    case conflict
    /// 401: the credentials must change first.
    case authentication

    /// The class of an HTTP status (`nil`: no response, or none that could be read).
    init(status: Int?) {
        switch status {
        case nil, 408?, 429?, 500?, 502?, 503?, 504?:
            self = .transient
        case 401?:
            self = .authentication
        case 409?, 412?:
            self = .conflict
        case let status? where status >= 500:
            self = .transient
        default:
            self = .permanent
        }
    }
}
