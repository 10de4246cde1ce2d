/* CryptHash_AlgorithmInstance.h — SHA-512 through OpenSSL's EVP interface (the yardstick beside the
 * reference implementation; the code is bench/algorithms/openssl_crypthash.c). */
#ifndef CRYPTHASH_ALGORITHMINSTANCE_H
#define CRYPTHASH_ALGORITHMINSTANCE_H

#define ALGORITHM_INSTANCE "SHA-512"
#define DIGEST_BIT_LENGTH 512
#define OUTPUT_BLANK_TEST_VECTORS 0
#define HB_EVP_NAME "SHA512"
#define HB_EVP_XOF 0

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest);

#endif
