import SyncTablesCore

/// What a keyed write asks its storage to record in the write's own transaction, so that a crash never
/// keeps the write without its record or the record without its write.
struct IdempotentRecording: Sendable {
    /// The request and whose it is.
    var request: IdempotentRequest
    /// Now, in milliseconds since 1970.
    var recordedAt: Int64
    /// Records made before this have expired: they neither replay nor keep the key from being used again.
    var expiredBefore: Int64
    /// The status of a success.
    var status: Int
    /// Whether the answer carries the item (not for a `204` to `DELETE`).
    var carriesItem: Bool

    /// The record of the write's success with `item` (the write's result).
    func record(of item: JSONObject) -> IdempotencyRecord {
        IdempotencyRecord(
            method: request.method, path: request.path,
            answer: WriteAnswer(status: status, item: carriesItem ? item : nil), recordedAt: recordedAt)
    }
}

/// The key of a keyed write was recorded (by a request running at the same time, or on another instance)
/// after the write looked for it: the write rolled back, and the request answers as a repeat.
struct IdempotencyKeyTaken: Error {
    /// The record that holds the key.
    var record: IdempotencyRecord
}
