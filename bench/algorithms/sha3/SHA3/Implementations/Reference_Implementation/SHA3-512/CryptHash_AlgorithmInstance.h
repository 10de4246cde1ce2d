/* NGCC instance header of the bundled SHA3-512 baseline (FIPS 202, 512-bit digest). */
#ifndef CRYPTHASH_ALGORITHMINSTANCE_H
#define CRYPTHASH_ALGORITHMINSTANCE_H

#define ALGORITHM_INSTANCE "SHA3-512"
#define DIGEST_BIT_LENGTH 512
#define OUTPUT_BLANK_TEST_VECTORS 0

/* Hashes msg_len_bits bits of msg into digest. Whole bytes are absorbed as they are, so
 * byte-aligned messages give the standard FIPS 202 digests; a partial last byte holds its
 * r bits at the high end and is absorbed as its value shifted right by 8 - r, lowest bit
 * first. Returns 0, or non-zero when digest is NULL, msg is NULL with a non-zero length, or
 * digest_len_bits is not DIGEST_BIT_LENGTH. */
int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *digest);

#endif /* CRYPTHASH_ALGORITHMINSTANCE_H */
