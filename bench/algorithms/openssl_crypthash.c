/* openssl_crypthash.c — CryptHash over OpenSSL's EVP interface: the optimised yardstick measured
 * beside each reference baseline. EVP hashes whole bytes, so a message whose length is not a
 * multiple of 8 bits is refused (its KAT check covers the byte-aligned entries only). The
 * instance header names the digest (HB_EVP_NAME) and whether it is an XOF (HB_EVP_XOF). */
#include <openssl/evp.h>

#include "CryptHash_AlgorithmInstance.h"

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest)
{
	/* fetched once: the figures should time hashing, not the lookup (a name-looked-up digest
	 * would be fetched from the provider again on every call) */
	static const EVP_MD *md;
	if (!md)
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
		md = EVP_MD_fetch(NULL, HB_EVP_NAME, NULL);
#else
		md = EVP_get_digestbyname(HB_EVP_NAME);
#endif
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
