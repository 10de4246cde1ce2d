/* NGCC CryptHash entry point of the bundled SHA3-512 baseline: checks the call, then runs the
 * shared Keccak sponge (common/keccak.c, added by the build overrides in algorithm.json). */
#include "CryptHash_AlgorithmInstance.h"

#include <stddef.h>

#include "keccak.h"

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *digest)
{
    if (digest == NULL || (msg == NULL && msg_len_bits != 0))
        return -1;
    if (digest_len_bits != DIGEST_BIT_LENGTH)
        return -1;
    return keccak_sponge_bits(digest, DIGEST_BIT_LENGTH / 8, KECCAK_RATE_SHA3_512,
                              KECCAK_SUFFIX_SHA3, KECCAK_SUFFIX_SHA3_BITS, msg, msg_len_bits);
}
