#pragma once
#include <curl/curl.h>

// Swift cannot call C variadic functions, so curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt
// are reached through these typed wrappers (one per argument type SyncTables passes).

static inline CURLcode synctables_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode synctables_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode synctables_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode synctables_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode synctables_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode synctables_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                                             curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode synctables_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode synctables_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode synctables_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// Lets a paused transfer go on (CURLPAUSE_CONT is a macro expression Swift does not import).
static inline CURLcode synctables_easy_unpause(CURL *handle) {
    return curl_easy_pause(handle, CURLPAUSE_CONT);
}

/// What a write callback returns to pause its transfer without taking the bytes it was offered.
static inline size_t synctables_write_pause(void) {
    return CURL_WRITEFUNC_PAUSE;
}

/// The easy handle and result of a CURLMSG_DONE message (the result lives in a C union).
static inline CURLcode synctables_multi_message_result(const CURLMsg *message) {
    return message->data.result;
}

static inline CURLcode synctables_easy_setopt_read_callback(CURL *handle, curl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

/// What a read callback returns to abort its transfer (the upload body's reader failed).
static inline size_t synctables_read_abort(void) {
    return CURL_READFUNC_ABORT;
}
