/* CryptHash_AlgorithmInstance.h — instance header of a misbehaving test fixture. */
#define ALGORITHM_INSTANCE "nobuild_256"
#define DIGEST_BIT_LENGTH 256
#define OUTPUT_BLANK_TEST_VECTORS 0
int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest);
