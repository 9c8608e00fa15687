/*
 * Node-API binding of PQClean's ML-DSA-87 (FIPS 204) verification with a context string:
 * verify(signature, message, publicKey, context) -> boolean. Verification only: nothing here
 * signs or generates keys, so no randomness is ever needed.
 *
 * Plain Node-API (no V8 or Node internals): the same binary loads in every Node version with
 * Node-API 8, and in worker threads (it keeps no state between calls).
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"

#define MAX_CONTEXT_BYTES 255

/* Throws a TypeError and answers false unless `value` is a Uint8Array (a Buffer is one). */
static bool read_bytes(napi_env env, napi_value value, const char *name, const uint8_t **data, size_t *length) {
    bool is_typed_array = false;
    napi_typedarray_type type;
    void *raw = NULL;
    if (napi_is_typedarray(env, value, &is_typed_array) != napi_ok || !is_typed_array ||
        napi_get_typedarray_info(env, value, &type, length, &raw, NULL, NULL) != napi_ok || type != napi_uint8_array) {
        char message[96];
        snprintf(message, sizeof message, "%s must be a Uint8Array", name);
        napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", message);
        return false;
    }
    *data = (const uint8_t *) raw; /* already offset by the view's byteOffset */
    return true;
}

static napi_value verify(napi_env env, napi_callback_info info) {
    size_t argc = 4;
    napi_value argv[4];
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
    if (argc != 4) {
        napi_throw_type_error(env, "ERR_MISSING_ARGS", "verify(signature, message, publicKey, context) takes 4 arguments");
        return NULL;
    }
    const uint8_t *signature, *message, *public_key, *context;
    size_t signature_length, message_length, public_key_length, context_length;
    if (!read_bytes(env, argv[0], "signature", &signature, &signature_length) ||
        !read_bytes(env, argv[1], "message", &message, &message_length) ||
        !read_bytes(env, argv[2], "publicKey", &public_key, &public_key_length) ||
        !read_bytes(env, argv[3], "context", &context, &context_length)) {
        return NULL;
    }
    /* PQClean checks the signature and context lengths itself but trusts the key's: a key of any
     * other length is a signature that does not verify, never a read past its end. */
    bool valid = public_key_length == PQCLEAN_MLDSA87_CLEAN_CRYPTO_PUBLICKEYBYTES &&
                 signature_length == PQCLEAN_MLDSA87_CLEAN_CRYPTO_BYTES &&
                 context_length <= MAX_CONTEXT_BYTES &&
                 PQCLEAN_MLDSA87_CLEAN_crypto_sign_verify_ctx(signature, signature_length, message, message_length,
                                                              context, context_length, public_key) == 0;
    napi_value result;
    if (napi_get_boolean(env, valid, &result) != napi_ok) return NULL;
    return result;
}

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
    napi_value function, algorithm;
    if (napi_create_function(env, "verify", NAPI_AUTO_LENGTH, verify, NULL, &function) != napi_ok ||
        napi_set_named_property(env, exports, "verify", function) != napi_ok ||
        napi_create_string_utf8(env, PQCLEAN_MLDSA87_CLEAN_CRYPTO_ALGNAME, NAPI_AUTO_LENGTH, &algorithm) != napi_ok ||
        napi_set_named_property(env, exports, "algorithm", algorithm) != napi_ok) {
        return NULL;
    }
    return exports;
}
