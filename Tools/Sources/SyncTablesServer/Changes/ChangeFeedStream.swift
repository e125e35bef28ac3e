import Hummingbird
import NIOCore

/// The body of one change feed response: `ready`, then the replayed changes or a `reset`, then every change
/// the hub queues for the feed as it comes, and a `heartbeat` whenever the feed was idle for the heartbeat
/// interval. It ends when the hub ends the feed or the client goes away, and ends the feed at the hub then.
///
/// An idle feed waits on its queue and sleeps until the next heartbeat: no other timer, no polling.
struct ChangeFeedStream: Sendable {
    let subscription: ChangeSubscription
    let metrics: ServerMetrics?
    /// Runs when the stream ends, however it ends.
    var ended: @Sendable () -> Void = {}

    /// The most events written in one buffer while replaying.
    static let replayChunk = 256

    /// The response body.
    var body: ResponseBody {
        ResponseBody { [self] writer in
            defer {
                subscription.cancel()
                ended()
            }
            try await stream(to: &writer)
            try await writer.finish(nil)
        }
    }

    private var hub: ChangeHub { subscription.hub }

    private func stream(to writer: inout any ResponseBodyWriter) async throws {
        let start = subscription.start
        var opening = [ServerSentEvent.ready(at: start.position, heartbeat: hub.heartbeat)]
        switch start.resumption {
        case .none:
            break
        case .reset(let reason):
            opening.append(.reset(at: start.position, reason: reason))
        case .replay(let records):
            var rest = records[...]
            while !rest.isEmpty {
                opening += rest.prefix(Self.replayChunk).map { ServerSentEvent.change($0, epoch: hub.epoch) }
                rest = rest.dropFirst(Self.replayChunk)
                try await write(opening, to: &writer)
                opening = []
            }
        }
        if !opening.isEmpty { try await write(opening, to: &writer) }
        while !Task.isCancelled {
            switch await nextItemsOrHeartbeat() {
            case .items(let items):
                try await write(items.map(event), to: &writer)
            case .interrupted:
                try await write([.heartbeat], to: &writer)
            case .ended:
                return
            }
        }
    }

    /// The items queued for the feed, or ``ChangeSubscription/Delivery/interrupted`` when none came within a
    /// heartbeat interval.
    private func nextItemsOrHeartbeat() async -> ChangeSubscription.Delivery {
        await withTaskGroup(of: ChangeSubscription.Delivery?.self) { [subscription, heartbeat = hub.heartbeat] group in
            group.addTask { await subscription.next() }
            group.addTask {
                try? await Task.sleep(for: heartbeat)
                return nil
            }
            var delivery = ChangeSubscription.Delivery.interrupted
            if case let answer?? = await group.next() { delivery = answer }
            group.cancelAll()
            // Both children end once cancelled; the queue's answer counts whichever came first.
            for await case let answer? in group { delivery = answer }
            return delivery
        }
    }

    private func event(_ item: ChangeSubscription.Item) -> ServerSentEvent {
        switch item {
        case .change(let record): .change(record, epoch: hub.epoch)
        case .reset(let position, let reason): .reset(at: position, reason: reason)
        }
    }

    private func write(_ events: [ServerSentEvent], to writer: inout any ResponseBodyWriter) async throws {
        var buffer = ByteBuffer()
        for event in events { event.write(to: &buffer) }
        try await writer.write(buffer)
        metrics?.recordChangeEventsSent(events)
    }
}
