/*
 * PQClean's sign.c refers to randombytes() for key generation and hedged signing, which this
 * add-on never exposes (it only verifies). Linking this instead of an entropy source makes any
 * path that would need randomness fail loudly rather than quietly use weak bytes.
 */
#include <stdlib.h>

#include "randombytes.h"

int randombytes(uint8_t *output, size_t n) {
    (void) output;
    (void) n;
    abort();
}
