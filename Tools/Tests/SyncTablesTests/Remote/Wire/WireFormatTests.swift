import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTables

@Suite("Wire format")
struct WireFormatTests {
    @Test func idsInPathsAreEncodedLikeUriEscapeDataString() {
        #expect(PercentEncoding.pathSegment("abc-1.2_3~") == "abc-1.2_3~")
        #expect(PercentEncoding.pathSegment("a b#c%d&e") == "a%20b%23c%25d%26e")
        #expect(PercentEncoding.pathSegment("x:y'z") == "x%3Ay%27z")
        #expect(PercentEncoding.pathSegment("é") == "%C3%A9")
    }

    @Test func queryValuesAreEncodedStrictlyKeepingQuotesAndParentheses() {
        let filter = "(updatedAt ge datetimeoffset'1970-01-01T00:00:00.000+00:00')"
        #expect(
            PercentEncoding.queryValue(filter)
                == "(updatedAt%20ge%20datetimeoffset'1970-01-01T00%3A00%3A00.000%2B00%3A00')"
        )
        #expect(PercentEncoding.queryValue("a&b=c,d/e?f") == "a%26b%3Dc%2Cd%2Fe%3Ff")
        #expect(PercentEncoding.queryValue("it's") == "it's")
    }

    @Test func anETagLosesOnePairOfQuotesAndItsEscapes() {
        #expect(EntityTag.version(fromETag: #""AAAAAAAAHzg=""#) == "AAAAAAAAHzg=")
        #expect(EntityTag.version(fromETag: #""a\"b""#) == #"a"b"#)
        #expect(EntityTag.version(fromETag: "\"\"v\"\"") == "\"v\"")
        #expect(EntityTag.version(fromETag: "3") == "3")
        #expect(EntityTag.version(fromETag: #"W/"7""#) == "7")
    }

    @Test func ifMatchWrapsTheVersionInQuotesAndEscapesInnerQuotes() {
        #expect(EntityTag.header(for: "v1") == #""v1""#)
        #expect(EntityTag.header(for: #"a"b"#) == #""a\"b""#)
    }

    @Test func theNextLinkIsFoundWithOrWithoutAngleBrackets() throws {
        let base = try #require(URL(string: "http://h:1/tables/todo?$top=100"))
        let plain = "http://h:1/tables/todo?$top=50&$skip=50; rel=next"
        #expect(
            LinkHeader.nextURL(in: plain, relativeTo: base)?.absoluteString == "http://h:1/tables/todo?$top=50&$skip=50"
        )
        let bracketed = #"<http://h:1/tables/todo?$skip=2>; rel="next""#
        #expect(LinkHeader.nextURL(in: bracketed, relativeTo: base)?.absoluteString == "http://h:1/tables/todo?$skip=2")
        let several = "<http://h:1/a>; rel=prev, <http://h:1/b>; rel=next"
        #expect(LinkHeader.nextURL(in: several, relativeTo: base)?.absoluteString == "http://h:1/b")
        let relative = "/tables/todo?$skip=9;rel = next"
        #expect(LinkHeader.nextURL(in: relative, relativeTo: base)?.absoluteString == "http://h:1/tables/todo?$skip=9")
    }

    @Test func aLinkThatIsNotRelNextIsIgnored() throws {
        let base = try #require(URL(string: "http://h/tables/todo"))
        #expect(LinkHeader.nextURL(in: "http://h/tables/todo?$skip=0; rel=prev", relativeTo: base) == nil)
        #expect(LinkHeader.nextURL(in: "garbage", relativeTo: base) == nil)
    }

    @Test func featuresAreWrittenInTheProtocolsFixedOrder() {
        let features: ZumoFeatures = [.incrementalPull, .offline, .queryObject]
        #expect(features.headerValue == "TQ,OL,IP")
        #expect(ZumoFeatures.offline.headerValue == "OL")
        #expect(ZumoFeatures().headerValue == "")
    }

    @Test func queryOptionsBecomeAnEncodedQueryStringInAStableOrder() {
        var query = TableQuery()
        query.parameters = [(name: "param 1", value: "a+b")]
        query.includeDeleted = true
        query.top = 50
        query.skip = 0
        query.orderBy = ["String desc", "id"]
        query.filter = "(String eq 'world')"
        #expect(
            query.queryString
                == "$filter=(String%20eq%20'world')&$orderby=String%20desc%2Cid&$skip=0&$top=50"
                + "&__includeDeleted=true&param%201=a%2Bb"
        )
    }

    @Test(arguments: ["$top", "__includeDeleted", ""])
    func customParameterNamesOfTheProtocolAreRejected(name: String) {
        var query = TableQuery()
        query.parameters = [(name: name, value: "1")]
        #expect(throws: RemoteError.invalidQueryParameter(name)) { try query.validate() }
    }
}
