import SyncTablesCore
import Testing

@Suite("Item ids")
struct ItemIDTests {
    @Test(arguments: [
        "a", "todo-1", "ONE", " padded ", "名前", "😀", "a.b", "...", "a b", String(repeating: "x", count: 255),
    ])
    func acceptsValidIds(id: String) throws {
        try ItemID.validate(id)
        #expect(ItemID.isValid(id))
    }

    @Test(arguments: [
        ("", ItemIDError.empty),
        ("   ", .onlyWhitespace),
        ("\u{3000}", .onlyWhitespace),
        (String(repeating: "x", count: 256), .tooLong(length: 256, limit: 255)),
        (String(repeating: "😀", count: 128), .tooLong(length: 256, limit: 255)),
        ("a\u{0}b", .controlCharacter(codePoint: 0)),
        ("a\nb", .controlCharacter(codePoint: 0x0A)),
        ("a\u{1F}", .controlCharacter(codePoint: 0x1F)),
        ("a\u{7F}", .controlCharacter(codePoint: 0x7F)),
        ("a\u{9F}", .controlCharacter(codePoint: 0x9F)),
        ("a\"b", .forbiddenCharacter("\"")),
        ("a+b", .forbiddenCharacter("+")),
        ("a?b", .forbiddenCharacter("?")),
        ("a\\b", .forbiddenCharacter("\\")),
        ("a/b", .forbiddenCharacter("/")),
        ("a`b", .forbiddenCharacter("`")),
        (".", .reservedName(".")),
        ("..", .reservedName("..")),
    ])
    func rejectsInvalidIdsSayingWhy(id: String, expected: ItemIDError) {
        #expect(throws: expected) { try ItemID.validate(id) }
        #expect(!ItemID.isValid(id))
    }

    @Test func generatesDistinctLowercaseUUIDs() throws {
        let first = ItemID.generate()
        let second = ItemID.generate()
        #expect(first != second)
        #expect(first.count == 36)
        #expect(first == first.lowercased())
        try ItemID.validate(first)
    }

    @Test func describesTheBrokenRule() {
        #expect(
            ItemIDError.tooLong(length: 300, limit: 255).description
                == "The item id is 300 UTF-16 code units long; the limit is 255.")
        #expect(
            ItemIDError.controlCharacter(codePoint: 0x1F).description == "The item id holds the control character U+1F."
        )
    }
}
