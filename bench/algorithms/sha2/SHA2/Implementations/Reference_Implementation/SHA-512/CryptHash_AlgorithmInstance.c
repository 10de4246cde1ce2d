/* NGCC CryptHash entry point of the bundled SHA-512 baseline: checks the call, then hashes. */
#include "CryptHash_AlgorithmInstance.h"

#include <stddef.h>

#include "sha512.h"

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *digest)
{
    if (digest == NULL || (msg == NULL && msg_len_bits != 0))
        return -1;
    if (digest_len_bits != DIGEST_BIT_LENGTH)
        return -1;
    sha512_hash_bits(digest, msg, msg_len_bits);
    return 0;
}
