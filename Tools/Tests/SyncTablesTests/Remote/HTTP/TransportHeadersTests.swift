import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("TransportHeaders")
struct HTTPHeadersTests {
    @Test("lookup ignores case and returns the first field")
    func looksUpCaseInsensitively() {
        let headers: TransportHeaders = ["ETag": "\"1\"", "etag": "\"2\""]
        #expect(headers["etag"] == "\"1\"")
        #expect(headers.values(for: "ETAG") == ["\"1\"", "\"2\""])
        #expect(headers.contains("Etag"))
        #expect(headers["If-Match"] == nil)
    }

    @Test("setting replaces every field of that name at the first one's position")
    func setReplacesInPlace() {
        var headers: TransportHeaders = ["A": "1", "b": "2", "B": "3", "C": "4"]
        headers["B"] = "x"
        #expect(headers.fields.map(\.name) == ["A", "B", "C"])
        #expect(headers["b"] == "x")
        headers["b"] = nil
        #expect(headers.fields.map(\.name) == ["A", "C"])
        headers["D"] = "5"
        #expect(headers.fields.map(\.name) == ["A", "C", "D"])
    }

    @Test("adding keeps existing fields of the same name")
    func addAppends() {
        var headers = TransportHeaders()
        headers.add(name: "Set-Cookie", value: "a")
        headers.add(name: "set-cookie", value: "b")
        #expect(headers.count == 2)
        #expect(headers.values(for: "Set-Cookie") == ["a", "b"])
    }
}
