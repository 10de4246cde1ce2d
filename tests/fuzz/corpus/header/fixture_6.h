/* CryptHash_Toyhash-256.h — instance header of the test fixture; deliberately not named
 * CryptHash_AlgorithmInstance.h, as one Round-1 package does. */
#ifndef CRYPTHASH_TOYHASH_256_H
#define CRYPTHASH_TOYHASH_256_H

#define ALGORITHM_INSTANCE "toy_256" /* differs from the folder name Toy-256 */
#define DIGEST_BIT_LENGTH 256
#define OUTPUT_BLANK_TEST_VECTORS 0

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest);

#endif
