#if SQLCipher
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Key bytes in memory of their own, wiped when the last reference goes away.
    ///
    /// Immutable after `init`, hence `Sendable`.
    final class KeyBuffer: @unchecked Sendable {
        private let storage: UnsafeMutableRawBufferPointer

        /// Allocates `count` bytes and lets `fill` write every one of them.
        init(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) {
            storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
            storage.initializeMemory(as: UInt8.self, repeating: 0)
            fill(UnsafeMutableRawBufferPointer(rebasing: storage[0..<count]))
            self.count = count
        }

        /// How many bytes of key material the buffer holds.
        let count: Int

        deinit {
            Self.wipe(storage)
            storage.deallocate()
        }

        /// Calls `body` with the key bytes; they must not escape it.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
        }

        /// Zeroes memory with a call the optimizer may not drop as a dead store.
        static func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            #if canImport(Glibc)
                explicit_bzero(base, bytes.count)
            #elseif canImport(Darwin)
                _ = memset_s(base, bytes.count, 0, bytes.count)
            #else
                bytes.initializeMemory(as: UInt8.self, repeating: 0)
            #endif
        }
    }
#endif
