/* CryptHash_AlgorithmInstance.h — SHAKE256 through OpenSSL's EVP interface (the yardstick beside the
 * reference implementation; the code is bench/algorithms/openssl_crypthash.c). */
#ifndef CRYPTHASH_ALGORITHMINSTANCE_H
#define CRYPTHASH_ALGORITHMINSTANCE_H

#define ALGORITHM_INSTANCE "SHAKE256"
#define DIGEST_BIT_LENGTH 256
#define OUTPUT_BLANK_TEST_VECTORS 0
#define HB_EVP_NAME "SHAKE256"
#define HB_EVP_XOF 1

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest);

#endif
