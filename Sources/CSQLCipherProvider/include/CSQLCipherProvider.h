#pragma once

/// Installs SyncTables' page crypto provider into libsqlcipher, once per process.
///
/// SQLCipher 3.4's OpenSSL provider builds and frees an HMAC context and a cipher context for every page
/// it encrypts or decrypts (on OpenSSL 3 each also looks the algorithm up again). This provider computes
/// exactly the same bytes (AES in the chosen mode, HMAC-SHA1, PBKDF2-HMAC-SHA1, IVs from `RAND_bytes`)
/// through contexts keyed once per key, and draws each connection's IVs from `RAND_bytes` 4 KiB at a time
/// (a new draw in a forked child), so the files stay readable by any SQLCipher 3.4.
///
/// Installed only on the SQLCipher 3.4 series (the provider table's layout is that series'), on Linux with
/// OpenSSL 3; anywhere else it does nothing and SQLCipher keeps its own provider. Connections keyed before
/// the call keep the provider they started with. The environment variable `SYNCTABLES_PAGE_CRYPTO=sqlcipher`
/// keeps SQLCipher's own provider. Returns 1 when the provider is installed, 0 otherwise.
int synctables_sqlcipher_install_page_crypto(void);

/// 1 when SQLCipher's registry holds SyncTables' provider, so connections keyed from now on use it.
int synctables_sqlcipher_page_crypto_is_registered(void);
