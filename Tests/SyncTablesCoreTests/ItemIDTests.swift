import Foundation
import Testing

@_spi(SyncTablesTools) @testable import SyncTablesCore

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

    /// ASCII ids take a byte-level shortcut; every ASCII character must still follow the rules.
    @Test func everyASCIICharacterInsideAnIdFollowsTheRules() {
        for code in UInt8(0)...0x7F {
            let character = Character(Unicode.Scalar(code))
            let id = "a\(character)b"
            let expected: ItemIDError?
            switch code {
            case 0x00...0x1F, 0x7F: expected = .controlCharacter(codePoint: UInt32(code))
            case 0x22, 0x2B, 0x3F, 0x5C, 0x2F, 0x60: expected = .forbiddenCharacter(character)
            default: expected = nil
            }
            if let expected {
                #expect(throws: expected, "U+\(code)") { try ItemID.validate(id) }
            } else {
                #expect(ItemID.isValid(id), "U+\(code)")
            }
        }
        #expect(throws: ItemIDError.onlyWhitespace) { try ItemID.validate(String(repeating: " ", count: 255)) }
        #expect(ItemID.isValid(String(repeating: " ", count: 254) + "x"))
    }

    @Test func generatesDistinctLowercaseUUIDs() throws {
        let first = ItemID.generate()
        let second = ItemID.generate()
        #expect(first != second)
        #expect(first.count == 36)
        #expect(first == first.lowercased())
        try ItemID.validate(first)
    }

    @Test func generatedIDsAreVersion4UUIDsAndDistinctAcrossBlocksAndThreads() async throws {
        // More than one 4 KiB block of random bytes per task, from several tasks at once.
        let ids = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<1_000).map { _ in ItemID.generate() } } }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 4_000)
        for id in ids.prefix(300) {
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4", "version 4")
            #expect("89ab".contains(characters[19]), "RFC 4122 variant")
        }
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
