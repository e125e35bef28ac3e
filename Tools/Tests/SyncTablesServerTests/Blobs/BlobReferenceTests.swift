import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// Blobs follow the rows that reference them: a live row grants read to whoever may read the row, its
/// deletion takes that back, a write that fails leaves no reference, and only writers of an attachment table
/// upload. On the backend `SYNC_TEST_BACKEND` selects.
@Suite("Blob references")
struct BlobReferenceTests {
    static let plan = BlobAccessFixture.bytes("red-team-plan")

    @Test func aTeamRowLetsTeammatesReadItsBlobAndNobodyElse() async throws {
        try await BlobAccessFixture.with { fixture in
            let path = BlobServer.path(of: Self.plan)
            try await fixture.upload(Self.plan, as: .alice)
            #expect(try await fixture.send(.head, path, body: nil, as: .carol).status == 404)

            let row = #"{"id":"plan","title":"p","file":\#(BlobAccessFixture.attachment(Self.plan))}"#
            try #require(try await fixture.send(.post, "/tables/teamFiles", json: row, as: .alice).status == 201)

            let carol = try await fixture.send(.get, path, body: nil, as: .carol)
            #expect(carol.status == 200)
            #expect(carol.body == Self.plan)
            #expect(try await fixture.send(.head, path, body: nil, as: .bob).status == 404)
            #expect(try await fixture.send(.head, path, body: nil, as: .dave).status == 404)
        }
    }

    @Test func deletingTheRowTakesReadBackFromAllButTheUploaderAndRestoringGivesItAgain() async throws {
        try await BlobAccessFixture.with { fixture in
            let path = BlobServer.path(of: Self.plan)
            try await fixture.upload(Self.plan, as: .alice)
            let row = #"{"id":"plan","file":\#(BlobAccessFixture.attachment(Self.plan))}"#
            try #require(try await fixture.send(.post, "/tables/teamFiles", json: row, as: .alice).status == 201)
            try #require(try await fixture.send(.head, path, body: nil, as: .carol).status == 200)

            try #require(try await fixture.send(.delete, "/tables/teamFiles/plan", as: .alice).status == 200)
            let afterDelete = try await fixture.send(.head, path, body: nil, as: .carol)
            let uploader = try await fixture.send(.head, path, body: nil, as: .alice)
            try #require(try await fixture.send(.post, "/tables/teamFiles/plan", as: .carol).status == 200)
            let afterRestore = try await fixture.send(.head, path, body: nil, as: .carol)

            #expect(afterDelete.status == 404)
            #expect(uploader.status == 200)
            #expect(afterRestore.status == 200)
        }
    }

    @Test func anUpdateThatReplacesTheAttachmentMovesTheReference() async throws {
        try await BlobAccessFixture.with { fixture in
            let other = BlobAccessFixture.bytes("second-version")
            try await fixture.upload(Self.plan, as: .alice)
            try await fixture.upload(other, as: .alice)
            let row = #"{"id":"plan","file":\#(BlobAccessFixture.attachment(Self.plan))}"#
            try #require(try await fixture.send(.post, "/tables/teamFiles", json: row, as: .alice).status == 201)

            let patch = #"{"file":\#(BlobAccessFixture.attachment(other))}"#
            try #require(
                try await fixture.send(.patch, "/tables/teamFiles/plan", json: patch, as: .alice).status == 200)

            #expect(try await fixture.send(.head, BlobServer.path(of: Self.plan), body: nil, as: .carol).status == 404)
            #expect(try await fixture.send(.head, BlobServer.path(of: other), body: nil, as: .carol).status == 200)
        }
    }

    @Test func aKeyedWriteKeepsItsReferenceInItsTransactionToo() async throws {
        try await BlobAccessFixture.with { fixture in
            let path = BlobServer.path(of: Self.plan)
            try await fixture.upload(Self.plan, as: .alice)
            let row = #"{"id":"plan","file":\#(BlobAccessFixture.attachment(Self.plan))}"#

            let keyed = try await fixture.send(
                .post, "/tables/teamFiles", json: row, as: .alice, headers: ["Idempotency-Key": "plan-insert-1"])
            let readWhileLive = try await fixture.send(.head, path, body: nil, as: .carol)
            let deleted = try await fixture.send(
                .delete, "/tables/teamFiles/plan", as: .alice, headers: ["Idempotency-Key": "plan-delete-1"])
            let readAfterDelete = try await fixture.send(.head, path, body: nil, as: .carol)

            #expect(keyed.status == 201, "\(keyed.text)")
            #expect(readWhileLive.status == 200)
            #expect(deleted.status == 200)
            #expect(readAfterDelete.status == 404)
        }
    }

    @Test func aRefusedWriteLeavesNoReference() async throws {
        try await BlobAccessFixture.with { fixture in
            let path = BlobServer.path(of: Self.plan)
            try await fixture.upload(Self.plan, as: .alice)
            let made = try await fixture.send(.post, "/tables/teamFiles", json: #"{"id":"plan"}"#, as: .alice)
            try #require(made.status == 201)
            let patch = #"{"file":\#(BlobAccessFixture.attachment(Self.plan))}"#

            let stale = try await fixture.send(
                .patch, "/tables/teamFiles/plan", json: patch, as: .alice, headers: ["If-Match": "\"stale\""])
            let readAfterStale = try await fixture.send(.head, path, body: nil, as: .carol)
            let taken = try await fixture.send(
                .post, "/tables/teamFiles", json: #"{"id":"plan","file":\#(BlobAccessFixture.attachment(Self.plan))}"#,
                as: .alice)
            let readAfterConflict = try await fixture.send(.head, path, body: nil, as: .carol)

            #expect(stale.status == 412)
            #expect(readAfterStale.status == 404)
            #expect(taken.status == 409)
            #expect(readAfterConflict.status == 404)
            #expect(try await fixture.send(.get, "/tables/teamFiles/plan", as: .carol).object()["file"] == nil)
        }
    }

    @Test func onlyACallerWhoMayWriteAnAttachmentTableUploads() async throws {
        let declarations = """
            tables:
              notices:
                access: read-only
                columns: { title: string, file: attachment }
              teamFiles:
                access: claim
                claim: team
                claimColumn: teamId
                columns: { file: attachment }
            """
        try await BlobAccessFixture.with(declarations: declarations) { fixture in
            let bytes = BlobAccessFixture.bytes("notice")
            let path = BlobServer.path(of: bytes)

            let plain = try await fixture.send(.put, path, body: bytes, as: .dave)
            let resumable = try await fixture.send(
                .put, path, body: bytes, as: .dave,
                headers: ["Upload-Complete": "?1", "Upload-Draft-Interop-Version": "6"])
            let teamMember = try await fixture.send(.put, path, body: bytes, as: .alice)

            #expect(plain.status == 403)
            #expect(resumable.status == 403)
            #expect(teamMember.status == 201)
            #expect(try await fixture.send(.head, path, body: nil, as: .dave).status == 404)
        }
    }

    @Test func aServerWithDeclaredTablesAnnouncesBlobs() async throws {
        try await BlobAccessFixture.with { fixture in
            let document = try await fixture.send(.get, "/sync/capabilities", as: .dave).object()
            #expect(document["blobs"]?.objectValue?["path"] == .string("/sync/blobs"))
        }
    }
}
