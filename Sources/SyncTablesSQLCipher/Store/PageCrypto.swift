#if SQLCipher
    import CSQLCipherProvider

    /// SyncTables' page crypto provider for SQLCipher: the same algorithms and bytes as SQLCipher's own
    /// OpenSSL provider, through OpenSSL contexts keyed once per key instead of built and freed for every
    /// page. See `CSQLCipherProvider.h` for when it applies.
    enum PageCrypto {
        /// Installs the provider on first use (once per process); `true` when it is in use.
        static let isInstalled = synctables_sqlcipher_install_page_crypto() == 1

        /// Whether SQLCipher's registry holds the provider now, so a connection keyed now uses it.
        static var isRegistered: Bool {
            synctables_sqlcipher_page_crypto_is_registered() == 1
        }
    }
#endif
