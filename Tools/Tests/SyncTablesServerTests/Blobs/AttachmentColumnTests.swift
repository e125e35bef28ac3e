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

    private static let hash = String(repeating: "ab", count: 32)

    @Test func anAttachmentWithAHashAndASizeIsStoredAsSent() async throws {
        try await SignedInServer.with(declarations: Self.declarations) { server in
            let stored = try await server.insert(
                "photos",
                #"{"id":"a","file":{"sha256":"\#(Self.hash)","size":12,"contentType":"image/jpeg","name":"a.jpg"}}"#)
            #expect(
                stored["file"]
                    == .object([
                        "sha256": .string(Self.hash), "size": .integer(12), "contentType": .string("image/jpeg"),
                        "name": .string("a.jpg"),
                    ]))
            let minimal = try await server.send(
                .post, "/tables/photos", json: #"{"id":"b","file":{"sha256":"\#(Self.hash)","size":0}}"#)
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
