/* openssl_crypthash.c — CryptHash over OpenSSL's EVP interface: the optimised yardstick measured
 * beside each reference baseline. EVP hashes whole bytes, so a message whose length is not a
 * multiple of 8 bits is refused (its KAT check covers the byte-aligned entries only). The
 * instance header names the digest (HB_EVP_NAME) and whether it is an XOF (HB_EVP_XOF). */
#include <openssl/evp.h>

#include "CryptHash_AlgorithmInstance.h"

/* Fetched once: the figures should time hashing, not the lookup (a name-looked-up digest would
 * be fetched from the provider again on every call). Fetched when the library is loaded, so
 * OpenSSL's start-up (locks, its configuration file) happens before hashbench's sandbox allows
 * only the system calls hashing needs. */
static const EVP_MD *md;

static void S_fetch(void)
{
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
	md = EVP_MD_fetch(NULL, HB_EVP_NAME, NULL);
#else
	md = EVP_get_digestbyname(HB_EVP_NAME);
#endif
}

__attribute__((constructor)) static void S_load(void)
{
	S_fetch();
}

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest)
{
	if (!md)
		S_fetch();
	if (!md || !digest || (!msg && msg_len_bits) || msg_len_bits % 8)
		return 1;
#if HB_EVP_XOF
	{
		EVP_MD_CTX *ctx;
		int ok;
		if (digest_len_bits <= 0 || digest_len_bits % 8)
			return 1;
		ctx = EVP_MD_CTX_new();
		ok = ctx && EVP_DigestInit_ex(ctx, md, NULL) &&
			EVP_DigestUpdate(ctx, msg, (size_t)(msg_len_bits / 8)) &&
			EVP_DigestFinalXOF(ctx, digest, (size_t)digest_len_bits / 8);
		EVP_MD_CTX_free(ctx);
		return ok ? 0 : 1;
	}
#else
	if (digest_len_bits != DIGEST_BIT_LENGTH)
		return 1;
	/* the one-shot call `openssl speed -evp` times too */
	return EVP_Digest(msg, (size_t)(msg_len_bits / 8), digest, NULL, md, NULL) ? 0 : 1;
#endif
}
