#if SQLCipher
    import Testing

    @testable import SyncTablesSQLCipher

    /// The buffer that holds key bytes wipes what it is given.
    @Suite("Key buffers") struct KeyBufferTests {
        @Test func wipeZeroesEveryByte() {
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 67, alignment: 1)
            defer { bytes.deallocate() }
            bytes.initializeMemory(as: UInt8.self, repeating: 0xA5)
            KeyBuffer.wipe(bytes)
            #expect(bytes.allSatisfy { $0 == 0 })
        }

        @Test func aRawKeyIsHandedToSQLCipherAsItsHexBlobLiteral() throws {
            let key = try EncryptionKey.raw([UInt8](0..<32))
            let literal = key.material.withBytes { String(decoding: $0, as: UTF8.self) }
            #expect(literal == "x'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F'")
        }

        @Test func aPassphraseIsHandedToSQLCipherAsItsUTF8Bytes() throws {
            let key = try EncryptionKey.passphrase("pässword")
            #expect(key.material.withBytes { Array($0) } == Array("pässword".utf8))
        }
    }
#endif
