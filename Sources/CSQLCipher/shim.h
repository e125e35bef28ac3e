#pragma once
// SQLCipher only declares sqlite3_key/sqlite3_rekey when SQLITE_HAS_CODEC is defined.
#define SQLITE_HAS_CODEC 1
#include <sqlcipher/sqlite3.h>
