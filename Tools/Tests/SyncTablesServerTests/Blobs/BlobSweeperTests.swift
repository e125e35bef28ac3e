import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Blobs no live row references are removed once their last upload is older than the horizon; referenced
/// and recent ones stay. Time moves on a manual clock; the sweeper steps after blob requests.
@Suite("Blob sweeper")
struct BlobSweeperTests {
    @Test func anUnreferencedBlobPastTheHorizonIsRemovedAndReferencedAndRecentOnesStay() async throws {
        let clock = ManualSyncClock()
        try await BlobAccessFixture.with({
            $0.clock = clock
            $0.blobHorizon = .seconds(3600)
        }) { fixture in
            let unreferenced = BlobAccessFixture.bytes("never-referenced")
            let referenced = BlobAccessFixture.bytes("referenced")
            let recent = BlobAccessFixture.bytes("recent")
            try await fixture.upload(unreferenced, as: .alice)
            try await fixture.upload(referenced, as: .alice)
            let row = #"{"id":"kept","file":\#(BlobAccessFixture.attachment(referenced))}"#
            try #require(try await fixture.send(.post, "/tables/photos", json: row, as: .alice).status == 201)

            clock.advance(by: .seconds(7200))
            try await fixture.upload(recent, as: .alice)  // a blob request: the sweeper's step runs first
            clock.advance(by: .seconds(120))
            _ = try await fixture.send(.head, BlobServer.path(of: recent), body: nil, as: .alice)  // and again

            #expect(
                try await fixture.send(.head, BlobServer.path(of: unreferenced), body: nil, as: .alice).status == 404)
            #expect(try !fixture.isStored(unreferenced))
            #expect(try await fixture.send(.head, BlobServer.path(of: referenced), body: nil, as: .alice).status == 200)
            #expect(try fixture.isStored(referenced))
            #expect(try await fixture.send(.head, BlobServer.path(of: recent), body: nil, as: .alice).status == 200)
            #expect(try fixture.isStored(recent))
        }
    }

    @Test func aBlobWhoseRowWasDeletedIsRemovedAHorizonLater() async throws {
        let clock = ManualSyncClock()
        try await BlobAccessFixture.with({
            $0.clock = clock
            $0.blobHorizon = .seconds(3600)
        }) { fixture in
            let bytes = BlobAccessFixture.bytes("deleted-later")
            try await fixture.upload(bytes, as: .alice)
            let row = #"{"id":"gone","file":\#(BlobAccessFixture.attachment(bytes))}"#
            try #require(try await fixture.send(.post, "/tables/photos", json: row, as: .alice).status == 201)
            clock.advance(by: .seconds(7200))
            _ = try await fixture.send(.head, BlobServer.path(of: bytes), body: nil, as: .alice)  // found referenced
            #expect(try fixture.isStored(bytes))

            try #require(try await fixture.send(.delete, "/tables/photos/gone", as: .alice).status == 200)
            clock.advance(by: .seconds(7200))
            _ = try await fixture.send(.head, BlobServer.path(of: bytes), body: nil, as: .alice)

            #expect(try !fixture.isStored(bytes))
        }
    }
}
