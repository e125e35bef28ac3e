import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Transport headers")
struct TransportHeadersTests {
    @Test func lookupIgnoresCaseAndReturnsTheFirstField() {
        let headers: TransportHeaders = ["ETag": "\"1\"", "etag": "\"2\""]
        #expect(headers["etag"] == "\"1\"")
        #expect(headers.values(for: "ETAG") == ["\"1\"", "\"2\""])
        #expect(headers.contains("Etag"))
        #expect(headers["If-Match"] == nil)
    }

    @Test func settingReplacesEveryFieldOfThatNameAtTheFirstOnesPosition() {
        var headers: TransportHeaders = ["A": "1", "b": "2", "B": "3", "C": "4"]
        headers["B"] = "x"
        #expect(headers.fields.map(\.name) == ["A", "B", "C"])
        #expect(headers["b"] == "x")
        headers["b"] = nil
        #expect(headers.fields.map(\.name) == ["A", "C"])
        headers["D"] = "5"
        #expect(headers.fields.map(\.name) == ["A", "C", "D"])
    }

    @Test func addingKeepsExistingFieldsOfTheSameName() {
        var headers = TransportHeaders()
        headers.add(name: "Set-Cookie", value: "a")
        headers.add(name: "set-cookie", value: "b")
        #expect(headers.count == 2)
        #expect(headers.values(for: "Set-Cookie") == ["a", "b"])
    }
}
