/* NGCC instance header of the bundled SHA-256 baseline (FIPS 180-4, 256-bit digest). */
#ifndef CRYPTHASH_ALGORITHMINSTANCE_H
#define CRYPTHASH_ALGORITHMINSTANCE_H

#define ALGORITHM_INSTANCE "SHA-256"
#define DIGEST_BIT_LENGTH 256
#define OUTPUT_BLANK_TEST_VECTORS 0

/* Hashes msg_len_bits bits of msg (most significant bit first) into digest. Returns 0, or
 * non-zero when digest is NULL, msg is NULL with a non-zero length, or digest_len_bits is
 * not DIGEST_BIT_LENGTH. */
int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *digest);

#endif /* CRYPTHASH_ALGORITHMINSTANCE_H */
