import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables
@testable import SyncTablesServer

/// The `attachment` column type: a blob's hash and size, optionally its content type and name, nothing else.
@Suite("Attachment columns")
struct AttachmentColumnTests {
    static let declarations = """
        tables:
          photos:
            access: authenticated
            columns:
              caption: string
              file: attachment
        """

    private static let bytes = Array("attached file".utf8)
    private static let hash = BlobServer.hash(of: bytes)

    @Test func anAttachmentWithAHashAndASizeIsStoredAsSent() async throws {
        // A row names only a blob that is stored and that its writer may read (see BlobReferenceTests).
        try await BlobAccessFixture.with(declarations: Self.declarations) { server in
            try await server.upload(Self.bytes, as: .alice)
            let inserted = try await server.send(
                .post, "/tables/photos",
                json:
                    #"{"id":"a","file":{"sha256":"\#(Self.hash)","size":12,"contentType":"image/jpeg","name":"a.jpg"}}"#,
                as: .alice)
            try #require(inserted.status == 201, "\(inserted.text)")
            let stored = try inserted.object()
            #expect(
                stored["file"]
                    == .object([
                        "sha256": .string(Self.hash), "size": .integer(12), "contentType": .string("image/jpeg"),
                        "name": .string("a.jpg"),
                    ]))
            let minimal = try await server.send(
                .post, "/tables/photos", json: #"{"id":"b","file":{"sha256":"\#(Self.hash)","size":0}}"#, as: .alice)
            #expect(minimal.status == 201)
        }
    }

    @Test(arguments: [
        #""file":"\#(String(repeating: "ab", count: 32))""#,
        #""file":{"size":12}"#,
        #""file":{"sha256":"\#(String(repeating: "AB", count: 32))","size":12}"#,
        #""file":{"sha256":"abc","size":12}"#,
        #""file":{"sha256":"\#(String(repeating: "ab", count: 32))"}"#,
        #""file":{"sha256":"\#(String(repeating: "ab", count: 32))","size":-1}"#,
        #""file":{"sha256":"\#(String(repeating: "ab", count: 32))","size":"12"}"#,
        #""file":{"sha256":"\#(String(repeating: "ab", count: 32))","size":12,"name":5}"#,
        #""file":{"sha256":"\#(String(repeating: "ab", count: 32))","size":12,"url":"http://x"}"#,
    ])
    func anAttachmentOfAnotherShapeIsRefused(property: String) async throws {
        try await SignedInServer.with(declarations: Self.declarations) { server in
            let response = try await server.send(.post, "/tables/photos", json: "{\"id\":\"a\",\(property)}")
            #expect(response.status == 400)
            let message = try #require(try response.errorMessage())
            #expect(message.contains("must be an attachment"), "\(message)")
        }
    }
}
