/* NGCC instance header of the bundled SHAKE256 baseline (FIPS 202 extendable-output
 * function, 256-bit default output). */
#ifndef CRYPTHASH_ALGORITHMINSTANCE_H
#define CRYPTHASH_ALGORITHMINSTANCE_H

#define ALGORITHM_INSTANCE "SHAKE256"
#define DIGEST_BIT_LENGTH 256
#define OUTPUT_BLANK_TEST_VECTORS 0

/* Writes digest_len_bits bits of SHAKE256 output for msg_len_bits bits of msg. Whole bytes
 * are absorbed as they are, so byte-aligned messages give the standard FIPS 202 output; a
 * partial last byte holds its r bits at the high end and is absorbed as its value shifted
 * right by 8 - r, lowest bit first. Returns 0, or non-zero when digest is NULL, msg is NULL
 * with a non-zero length, or digest_len_bits is not a positive multiple of 8. */
int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *digest);

#endif /* CRYPTHASH_ALGORITHMINSTANCE_H */
