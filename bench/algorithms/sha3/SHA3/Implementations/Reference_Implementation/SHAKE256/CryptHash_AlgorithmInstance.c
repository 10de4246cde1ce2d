/* NGCC CryptHash entry point of the bundled SHAKE256 baseline: checks the call, then runs the
 * shared Keccak sponge (common/keccak.c, added by the build overrides in algorithm.json). */
#include "CryptHash_AlgorithmInstance.h"

#include <stddef.h>

#include "keccak.h"

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *digest)
{
    if (digest == NULL || (msg == NULL && msg_len_bits != 0))
        return -1;
    /* An XOF: any whole number of output bytes is allowed, since the sponge squeezes
     * bytes. */
    if (digest_len_bits <= 0 || digest_len_bits % 8 != 0)
        return -1;
    return keccak_sponge_bits(digest, (unsigned long long)digest_len_bits / 8,
                              KECCAK_RATE_SHAKE256, KECCAK_SUFFIX_SHAKE, KECCAK_SUFFIX_SHAKE_BITS,
                              msg, msg_len_bits);
}
