// SyncTables' page crypto provider for SQLCipher 3.4 on OpenSSL 3 (see the header for what and why).
//
// Compiled only for the SQLCipher build on Linux with OpenSSL 3 headers; elsewhere the two entry points
// report "not installed" and SQLCipher keeps its own provider.

#include "CSQLCipherProvider.h"

#if defined(SYNCTABLES_SQLCIPHER) && defined(__linux__) && __has_include(<openssl/evp.h>)
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_MAJOR >= 3
#define SYNCTABLES_PAGE_CRYPTO 1
#endif
#endif

#ifdef SYNCTABLES_PAGE_CRYPTO

#define SQLITE_HAS_CODEC 1
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <sqlcipher/sqlite3.h>
#include <stdlib.h>
#include <string.h>

// SQLCipher 3.4's provider table. libsqlcipher-dev does not install sqlcipher.h, so the layout is declared
// here; it is the 3.4 series' (20 entries: `sqlcipher_activate` allocates 160 bytes for it, and
// `fips_status` and `get_provider_version` sit at offsets 144 and 152 in libsqlcipher 3.4.1).
typedef struct {
    int (*activate)(void *context);
    int (*deactivate)(void *context);
    const char *(*get_provider_name)(void *context);
    int (*add_random)(void *context, void *buffer, int length);
    int (*random)(void *context, void *buffer, int length);
    int (*hmac)(void *context, unsigned char *key, int key_size, unsigned char *in, int in_size,
                unsigned char *in2, int in2_size, unsigned char *out);
    int (*kdf)(void *context, const unsigned char *pass, int pass_size, unsigned char *salt, int salt_size,
               int iterations, int key_size, unsigned char *key);
    int (*cipher)(void *context, int mode, unsigned char *key, int key_size, unsigned char *iv,
                  unsigned char *in, int in_size, unsigned char *out);
    int (*set_cipher)(void *context, const char *name);
    const char *(*get_cipher)(void *context);
    int (*get_key_sz)(void *context);
    int (*get_iv_sz)(void *context);
    int (*get_block_sz)(void *context);
    int (*get_hmac_sz)(void *context);
    int (*ctx_copy)(void *target, void *source);
    int (*ctx_cmp)(void *first, void *second);
    int (*ctx_init)(void **context);
    int (*ctx_free)(void **context);
    int (*fips_status)(void *context);
    const char *(*get_provider_version)(void *context);
} provider_table;

_Static_assert(sizeof(provider_table) == 160, "the SQLCipher 3.4 provider table holds 20 function pointers");

// libsqlcipher 3.4's own allocator (zeroed, locked in memory, wiped on free) and provider registry.
extern void *sqlcipher_malloc(int size);
extern void sqlcipher_free(void *pointer, int size);
extern int sqlcipher_register_provider(provider_table *provider);
extern provider_table *sqlcipher_get_provider(void);
extern void sqlcipher_activate(void);

enum { cipher_decrypt = 0, cipher_encrypt = 1, longest_key = 64, sha1_size = 20, random_pool_size = 4080 };

/// A key a context was set up with; `size` 0 means none yet.
typedef struct {
    unsigned char bytes[longest_key];
    int size;
} remembered_key;

/// The state behind one SQLCipher cipher context (a connection has one for reading, one for writing).
/// SQLCipher uses it from one connection at a time, so it needs no lock.
typedef struct {
    const EVP_CIPHER *cipher;
    EVP_CIPHER_CTX *encryption;
    EVP_CIPHER_CTX *decryption;
    EVP_MAC_CTX *hmac;
    remembered_key encryption_key;
    remembered_key decryption_key;
    remembered_key hmac_key;
    /// Random bytes drawn from `RAND_bytes` in one call and handed out as each page's IV and filler (85
    /// pages' worth), so a page costs no call of its own. The last `random_left` bytes are unused.
    unsigned char random_pool[random_pool_size];
    int random_left;
    /// The `fork_generation` the pool was drawn in: a child process never reuses its parent's bytes.
    unsigned long random_generation;
} page_crypto;

static EVP_MAC *hmac_algorithm;
/// Raised in the child after every `fork`, so each context draws a new pool there.
static unsigned long fork_generation = 1;
static int is_installed;
static pthread_once_t installation = PTHREAD_ONCE_INIT;

static int is_remembered(const remembered_key *remembered, const unsigned char *key, int size) {
    return remembered->size == size && CRYPTO_memcmp(remembered->bytes, key, (size_t)size) == 0;
}

static int remember(remembered_key *remembered, const unsigned char *key, int size) {
    if (size <= 0 || size > longest_key) return 0;
    memcpy(remembered->bytes, key, (size_t)size);
    remembered->size = size;
    return 1;
}

static void forget(remembered_key *remembered) {
    OPENSSL_cleanse(remembered, sizeof *remembered);
}

/// Drops one keyed cipher context and its key: the next page keys a new one.
static void drop_cipher(EVP_CIPHER_CTX **slot, remembered_key *remembered) {
    EVP_CIPHER_CTX_free(*slot);
    *slot = NULL;
    forget(remembered);
}

/// Drops the keyed HMAC context and its key: the next page keys a new one.
static void drop_hmac(page_crypto *crypto) {
    EVP_MAC_CTX_free(crypto->hmac);
    crypto->hmac = NULL;
    forget(&crypto->hmac_key);
}

/// Drops every keyed context: the next page keys them again.
static void forget_keys(page_crypto *crypto) {
    drop_cipher(&crypto->encryption, &crypto->encryption_key);
    drop_cipher(&crypto->decryption, &crypto->decryption_key);
    drop_hmac(crypto);
}

// MARK: Provider entries

static int do_nothing(void *context) {
    (void)context;
    return SQLITE_OK;
}

static const char *provider_name(void *context) {
    (void)context;
    // What `PRAGMA cipher_provider` reports: the crypto is OpenSSL's, as with SQLCipher's own provider.
    return "openssl";
}

static const char *provider_version(void *context) {
    (void)context;
    return OpenSSL_version(OPENSSL_VERSION);
}

static int add_random(void *context, void *buffer, int length) {
    (void)context;
    RAND_add(buffer, length, 0);
    return SQLITE_OK;
}

static void forked(void) {
    __atomic_add_fetch(&fork_generation, 1, __ATOMIC_RELEASE);
}

static int random_bytes(void *context, void *buffer, int length) {
    page_crypto *crypto = context;
    if (length <= 0) return SQLITE_OK;
    if (length > random_pool_size) return RAND_bytes(buffer, length) == 1 ? SQLITE_OK : SQLITE_ERROR;
    unsigned long generation = __atomic_load_n(&fork_generation, __ATOMIC_ACQUIRE);
    if (crypto->random_generation != generation || crypto->random_left < length) {
        crypto->random_left = 0;
        if (RAND_bytes(crypto->random_pool, random_pool_size) != 1) return SQLITE_ERROR;
        crypto->random_left = random_pool_size;
        crypto->random_generation = generation;
    }
    unsigned char *bytes = crypto->random_pool + (random_pool_size - crypto->random_left);
    memcpy(buffer, bytes, (size_t)length);
    // Handed out once: wiped from the pool as it leaves.
    OPENSSL_cleanse(bytes, (size_t)length);
    crypto->random_left -= length;
    return SQLITE_OK;
}

static int page_hmac(void *context, unsigned char *key, int key_size, unsigned char *in, int in_size,
                     unsigned char *in2, int in2_size, unsigned char *out) {
    page_crypto *crypto = context;
    if (in == NULL) return SQLITE_ERROR;
    int ready;
    if (crypto->hmac != NULL && is_remembered(&crypto->hmac_key, key, key_size)) {
        // A NULL key restarts the MAC with the key it holds, skipping the key's two digest blocks.
        ready = EVP_MAC_init(crypto->hmac, NULL, 0, NULL) == 1;
    } else {
        drop_hmac(crypto);
        crypto->hmac = EVP_MAC_CTX_new(hmac_algorithm);
        OSSL_PARAM parameters[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA1", 0),
            OSSL_PARAM_construct_end(),
        };
        ready = crypto->hmac != NULL && remember(&crypto->hmac_key, key, key_size)
                && EVP_MAC_init(crypto->hmac, key, (size_t)key_size, parameters) == 1;
    }
    size_t written = 0;
    if (!ready || EVP_MAC_update(crypto->hmac, in, (size_t)in_size) != 1
        || (in2 != NULL && EVP_MAC_update(crypto->hmac, in2, (size_t)in2_size) != 1)
        || EVP_MAC_final(crypto->hmac, out, &written, sha1_size) != 1 || written != sha1_size) {
        drop_hmac(crypto);
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

static int derive_key(void *context, const unsigned char *pass, int pass_size, unsigned char *salt, int salt_size,
                      int iterations, int key_size, unsigned char *key) {
    (void)context;
    int derived = PKCS5_PBKDF2_HMAC((const char *)pass, pass_size, salt, salt_size, iterations, EVP_sha1(),
                                    key_size, key);
    return derived == 1 ? SQLITE_OK : SQLITE_ERROR;
}

static int page_cipher(void *context, int mode, unsigned char *key, int key_size, unsigned char *iv,
                       unsigned char *in, int in_size, unsigned char *out) {
    page_crypto *crypto = context;
    int encrypting = mode == cipher_encrypt;
    EVP_CIPHER_CTX **slot = encrypting ? &crypto->encryption : &crypto->decryption;
    remembered_key *remembered = encrypting ? &crypto->encryption_key : &crypto->decryption_key;
    int ready = *slot != NULL && is_remembered(remembered, key, key_size);
    if (!ready) {
        // The key schedule is computed once per key; each page then only sets its own IV.
        drop_cipher(slot, remembered);
        *slot = EVP_CIPHER_CTX_new();
        ready = *slot != NULL && remember(remembered, key, key_size)
                && EVP_CipherInit_ex2(*slot, crypto->cipher, key, NULL, encrypting, NULL) == 1
                && EVP_CIPHER_CTX_set_padding(*slot, 0) == 1;
    }
    int written = 0;
    int finished = 0;
    if (!ready || EVP_CipherInit_ex2(*slot, NULL, NULL, iv, encrypting, NULL) != 1
        || EVP_CipherUpdate(*slot, out, &written, in, in_size) != 1
        || EVP_CipherFinal_ex(*slot, out + written, &finished) != 1 || written + finished != in_size) {
        drop_cipher(slot, remembered);
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

static int set_cipher(void *context, const char *name) {
    page_crypto *crypto = context;
    const EVP_CIPHER *cipher = EVP_get_cipherbyname(name);
    if (cipher == NULL) return SQLITE_ERROR;
    if (cipher != crypto->cipher) forget_keys(crypto);
    crypto->cipher = cipher;
    return SQLITE_OK;
}

static const char *cipher_name(void *context) {
    return EVP_CIPHER_get0_name(((page_crypto *)context)->cipher);
}

static int key_size(void *context) {
    return EVP_CIPHER_get_key_length(((page_crypto *)context)->cipher);
}

static int iv_size(void *context) {
    return EVP_CIPHER_get_iv_length(((page_crypto *)context)->cipher);
}

static int block_size(void *context) {
    return EVP_CIPHER_get_block_size(((page_crypto *)context)->cipher);
}

static int hmac_size(void *context) {
    (void)context;
    return sha1_size;
}

static int copy_context(void *target, void *source) {
    page_crypto *copy = target;
    // The copy keys its own OpenSSL contexts and draws its own random bytes on first use; only the choice
    // of cipher carries over.
    forget_keys(copy);
    OPENSSL_cleanse(copy->random_pool, sizeof copy->random_pool);
    copy->random_left = 0;
    copy->cipher = ((page_crypto *)source)->cipher;
    return SQLITE_OK;
}

static int same_cipher(void *first, void *second) {
    return ((page_crypto *)first)->cipher == ((page_crypto *)second)->cipher;
}

static int create_context(void **context) {
    page_crypto *crypto = sqlcipher_malloc((int)sizeof(page_crypto));
    *context = crypto;
    if (crypto == NULL) return SQLITE_NOMEM;
    crypto->cipher = EVP_get_cipherbyname("aes-256-cbc");
    return crypto->cipher != NULL ? SQLITE_OK : SQLITE_ERROR;
}

static int free_context(void **context) {
    page_crypto *crypto = *context;
    if (crypto != NULL) {
        forget_keys(crypto);
        sqlcipher_free(crypto, (int)sizeof(page_crypto));
    }
    *context = NULL;
    return SQLITE_OK;
}

static int fips_status(void *context) {
    (void)context;
    return EVP_default_properties_is_fips_enabled(NULL);
}

// MARK: Installation

/// Whether the linked library is of the SQLCipher 3.4 series, whose provider table this file declares.
static int library_is_sqlcipher_3_4(void) {
    sqlite3 *database = NULL;
    sqlite3_stmt *statement = NULL;
    int matches = 0;
    if (sqlite3_open_v2(":memory:", &database, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK
        && sqlite3_prepare_v2(database, "PRAGMA cipher_version", -1, &statement, NULL) == SQLITE_OK
        && sqlite3_step(statement) == SQLITE_ROW) {
        const unsigned char *version = sqlite3_column_text(statement, 0);
        matches = version != NULL && strncmp((const char *)version, "3.4.", 4) == 0;
    }
    sqlite3_finalize(statement);
    sqlite3_close(database);
    return matches;
}

/// `SYNCTABLES_PAGE_CRYPTO=sqlcipher` keeps SQLCipher's own provider (to compare the two, or to rule this
/// one out).
static int is_declined(void) {
    const char *choice = getenv("SYNCTABLES_PAGE_CRYPTO");
    return choice != NULL && strcmp(choice, "sqlcipher") == 0;
}

static void install(void) {
    if (is_declined() || !library_is_sqlcipher_3_4()) return;
    hmac_algorithm = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (hmac_algorithm == NULL) return;
    provider_table *table = sqlcipher_malloc((int)sizeof(provider_table));
    if (table == NULL) return;
    *table = (provider_table){
        .activate = do_nothing,
        .deactivate = do_nothing,
        .get_provider_name = provider_name,
        .add_random = add_random,
        .random = random_bytes,
        .hmac = page_hmac,
        .kdf = derive_key,
        .cipher = page_cipher,
        .set_cipher = set_cipher,
        .get_cipher = cipher_name,
        .get_key_sz = key_size,
        .get_iv_sz = iv_size,
        .get_block_sz = block_size,
        .get_hmac_sz = hmac_size,
        .ctx_copy = copy_context,
        .ctx_cmp = same_cipher,
        .ctx_init = create_context,
        .ctx_free = free_context,
        .fips_status = fips_status,
        .get_provider_version = provider_version,
    };
    // SQLCipher frees its registered provider when its last keyed connection closes and then installs its
    // own again; one activation that is never undone keeps this one registered for the process.
    if (pthread_atfork(NULL, NULL, forked) != 0) {
        sqlcipher_free(table, (int)sizeof(provider_table));
        return;
    }
    sqlcipher_activate();
    sqlcipher_register_provider(table);
    is_installed = 1;
}

int synctables_sqlcipher_install_page_crypto(void) {
    pthread_once(&installation, install);
    return is_installed;
}

int synctables_sqlcipher_page_crypto_is_registered(void) {
    provider_table *registered = sqlcipher_get_provider();
    return registered != NULL && registered->cipher == page_cipher;
}

#else

int synctables_sqlcipher_install_page_crypto(void) { return 0; }

int synctables_sqlcipher_page_crypto_is_registered(void) { return 0; }

#endif
