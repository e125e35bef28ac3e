import Foundation
import HTTPTypes
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// User B (bob) tries every way to reach user A's (alice's) blob, which an owner row of hers references: reads,
/// ranges, validators, her upload in progress, rows that name it (insert, update, batch, another table), and a
/// PUT without its bytes. Every attempt is counted; each must answer as for a blob that does not exist, or
/// refuse the row and write nothing. On the backend `SYNC_TEST_BACKEND` selects.
@Suite("Hostile blob access")
struct HostileBlobAccessTests {
    static let aliceBytes = BlobAccessFixture.bytes("alice-private-photo")
    static let neverStored = BlobAccessFixture.bytes("never-stored")

    @Test func bobNeitherReadsNorReferencesNorProbesAlicesBlob() async throws {
        try await BlobAccessFixture.with { fixture in
            let path = BlobServer.path(of: Self.aliceBytes)
            let hash = BlobServer.hash(of: Self.aliceBytes)
            try await fixture.upload(Self.aliceBytes, as: .alice)
            let photo =
                #"{"id":"alice-photo","caption":"mine","file":\#(BlobAccessFixture.attachment(Self.aliceBytes))}"#
            try #require(try await fixture.send(.post, "/tables/photos", json: photo, as: .alice).status == 201)
            let pending = BlobAccessFixture.bytes("alice-upload-in-progress")
            let created = try await fixture.send(
                .put, BlobServer.path(of: pending), body: Array(pending.prefix(100)), as: .alice,
                headers: ["Upload-Complete": "?0", "Upload-Draft-Interop-Version": "6"])
            let location = try #require(created.header("Location"))
            let bobsOwn = try await fixture.send(.post, "/tables/photos", json: #"{"id":"bob-photo"}"#, as: .bob)
            try #require(bobsOwn.status == 201)

            var attempts = 0
            // What a blob that was never stored answers, with its name in place of alice's.
            let missingPath = BlobServer.path(of: Self.neverStored)
            let missingText = try await fixture.send(.get, missingPath, body: nil, as: .bob).text
                .replacingOccurrences(of: BlobServer.hash(of: Self.neverStored), with: hash)
            for headers in [[:], ["Range": "bytes=0-9"], ["Range": "bytes=-1"], ["If-None-Match": "\"\(hash)\""]] {
                attempts += 1
                let read = try await fixture.send(.get, path, body: nil, as: .bob, headers: headers)
                #expect(read.status == 404, "GET \(headers): \(read.status)")
                #expect(read.text == missingText)
                #expect(read.header("ETag") == nil && read.header("Content-Range") == nil)
            }
            for method in [HTTPRequest.Method.head, .patch, .delete] {
                attempts += 1
                let upload = try await fixture.send(
                    method, location, body: method == .patch ? [1] : nil, as: .bob,
                    headers: ["Upload-Offset": "100", "Upload-Complete": "?0", "Upload-Draft-Interop-Version": "6"])
                #expect(upload.status == 404, "\(method) of alice's upload: \(upload.status)")
            }
            attempts += 1
            let head = try await fixture.send(.head, path, body: nil, as: .bob)
            #expect(head.status == 404)
            #expect(head.header("Content-Length") != "\(Self.aliceBytes.count)")

            // Rows naming her blob: refused with 422 that names the column, nothing written.
            let file = BlobAccessFixture.attachment(Self.aliceBytes)
            let refusedRows: [(HTTPRequest.Method, String, String)] = [
                (.post, "/tables/photos", #"{"id":"stolen","file":\#(file)}"#),
                (.patch, "/tables/photos/bob-photo", #"{"file":\#(file)}"#),
                (.post, "/tables/teamFiles", #"{"id":"stolen-team","file":\#(file)}"#),
            ]
            for (method, rowPath, json) in refusedRows {
                attempts += 1
                let refused = try await fixture.send(method, rowPath, json: json, as: .bob)
                #expect(refused.status == 422, "\(method) \(rowPath): \(refused.status) \(refused.text)")
                #expect(try refused.errorMessage()?.contains("'file'") == true)
            }
            attempts += 1
            let batch = try await fixture.send(
                .post, "/sync/batch",
                json: #"""
                    {"operations":[{"method":"POST","table":"photos","body":{"id":"stolen-batch","file":\#(file)}},
                    {"method":"PATCH","table":"photos","id":"bob-photo","body":{"file":\#(file)}}]}
                    """#, as: .bob)
            #expect(Self.statuses(of: batch) == [422, 422], "\(batch.text)")
            // A PUT of other bytes under her blob's name proves nothing and stores nothing.
            attempts += 1
            let forged = try await fixture.send(.put, path, body: Self.neverStored, as: .bob)
            #expect(forged.status == 422)
            attempts += 1
            #expect(try await fixture.send(.head, path, body: nil, as: .bob).status == 404)

            #expect(attempts == 14)
            let bobsRows = try await fixture.send(.get, "/tables/photos?__includeDeleted=true", as: .bob)
            #expect(try bobsRows.ids() == ["bob-photo"])
            #expect(try bobsRows.objects().first?["file"] == nil)
            let team = try await fixture.send(.get, "/tables/teamFiles", as: .bob)
            #expect(try team.ids().isEmpty)
            #expect(try await fixture.send(.get, path, body: nil, as: .alice).body == Self.aliceBytes)
        }
    }

    @Test func aPutWithTheRightBytesProvesThemAndThenGrantsAccess() async throws {
        try await BlobAccessFixture.with { fixture in
            let path = BlobServer.path(of: Self.aliceBytes)
            try await fixture.upload(Self.aliceBytes, as: .alice)

            let proved = try await fixture.send(.put, path, body: Self.aliceBytes, as: .bob)

            #expect(proved.status == 200, "\(proved.text)")  // already stored: 200, as for anyone sending it again
            #expect(try await fixture.send(.get, path, body: nil, as: .bob).body == Self.aliceBytes)
            let row = #"{"id":"bob-copy","file":\#(BlobAccessFixture.attachment(Self.aliceBytes))}"#
            #expect(try await fixture.send(.post, "/tables/photos", json: row, as: .bob).status == 201)
        }
    }

    @Test func aRowMayNotNameABlobThatIsNotStored() async throws {
        try await BlobAccessFixture.with { fixture in
            let row = #"{"id":"ghost","file":\#(BlobAccessFixture.attachment(Self.neverStored))}"#

            let refused = try await fixture.send(.post, "/tables/photos", json: row, as: .alice)

            #expect(refused.status == 422)
            #expect(try refused.errorMessage()?.contains("'file'") == true)
            #expect(try await fixture.send(.get, "/tables/photos/ghost", as: .alice).status == 404)
        }
    }

    private static func statuses(of batch: HTTPResult) -> [Int] {
        guard case .array(let results)? = try? batch.object()["results"] else { return [] }
        return results.compactMap { result in
            if case .object(let object) = result, case .integer(let status)? = object["status"] {
                Int(status)
            } else {
                nil
            }
        }
    }
}
