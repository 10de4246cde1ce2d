/* drng.c — the message generator of the ICCS KAT tools: NIST SP 800-90A Hash_DRBG with SM3
 * (from libcrypto), seedlen 440 bits, no nonce, no personalisation, no reseeding. */
#include <string.h>

#include <openssl/evp.h>

#include "hbkat.h"

#define SM3_LEN 32

static int S_sm3(unsigned char out[SM3_LEN], const unsigned char *a, size_t alen,
	const unsigned char *b, size_t blen)
{
	/* One context per thread: the 2^33-bit KAT message takes 2^28 SM3 calls. */
	static _Thread_local EVP_MD_CTX *ctx;
	unsigned int n = SM3_LEN;
	int ok;

	if (!ctx)
		ctx = EVP_MD_CTX_new();
	ok = ctx && EVP_DigestInit_ex(ctx, EVP_sm3(), NULL) &&
		EVP_DigestUpdate(ctx, a, alen) && (blen == 0 || EVP_DigestUpdate(ctx, b, blen)) &&
		EVP_DigestFinal_ex(ctx, out, &n);
	return ok ? 0 : hb_error_set("libcrypto has no SM3 digest");
}

/* Hash_df to 440 bits: two SM3 blocks, counter byte then the bit count as be32. */
static int S_hash_df(unsigned char out[HB_DRNG_SEEDLEN], unsigned char prefix,
	const unsigned char *in, size_t inlen)
{
	unsigned char head[5 + 1], block[2 * SM3_LEN];
	size_t headlen = 0;
	int i;

	for (i = 0; i < 2; i++) {
		headlen = 0;
		head[headlen++] = (unsigned char)(i + 1);
		head[headlen++] = 0;
		head[headlen++] = 0;
		head[headlen++] = (unsigned char)(440 >> 8);
		head[headlen++] = (unsigned char)(440 & 0xff);
		if (prefix != 0xff)
			head[headlen++] = prefix; /* C = Hash_df(0x00 || V) */
		if (S_sm3(block + i * SM3_LEN, head, headlen, in, inlen) != 0)
			return HB_ERROR;
	}
	memcpy(out, block, HB_DRNG_SEEDLEN);
	return 0;
}

/* acc += x, both 55-byte big-endian numbers, modulo 2^440. */
static void S_add(unsigned char *acc, const unsigned char *x, size_t xlen)
{
	unsigned carry = 0;
	size_t i;
	for (i = 0; i < HB_DRNG_SEEDLEN; i++) {
		unsigned sum = acc[HB_DRNG_SEEDLEN - 1 - i] + carry;
		if (i < xlen)
			sum += x[xlen - 1 - i];
		acc[HB_DRNG_SEEDLEN - 1 - i] = (unsigned char)sum;
		carry = sum >> 8;
	}
}

int hb_drng_init(hb_drng *drng, const unsigned char *seed, size_t seed_len)
{
	memset(drng, 0, sizeof(*drng));
	if (S_hash_df(drng->v, 0xff, seed, seed_len) != 0 ||
		S_hash_df(drng->c, 0x00, drng->v, HB_DRNG_SEEDLEN) != 0)
		return HB_ERROR;
	drng->reseed_counter[HB_DRNG_SEEDLEN - 1] = 1;
	return 0;
}

int hb_drng_generate(hb_drng *drng, unsigned char *out, uint64_t bits)
{
	unsigned char data[HB_DRNG_SEEDLEN], block[SM3_LEN], three = 0x03;
	static const unsigned char one = 1;
	uint64_t bytes = (bits + 7) / 8, done = 0;

	memcpy(data, drng->v, HB_DRNG_SEEDLEN);
	while (done < bytes) {
		uint64_t take = bytes - done < SM3_LEN ? bytes - done : SM3_LEN;
		if (S_sm3(block, data, HB_DRNG_SEEDLEN, NULL, 0) != 0)
			return HB_ERROR;
		memcpy(out + done, block, (size_t)take);
		done += take;
		S_add(data, &one, 1);
	}
	if (bits % 8)
		out[bytes - 1] &= (unsigned char)(0xff << (8 - bits % 8));

	if (S_sm3(block, &three, 1, drng->v, HB_DRNG_SEEDLEN) != 0)
		return HB_ERROR;
	S_add(drng->v, block, SM3_LEN);
	S_add(drng->v, drng->c, HB_DRNG_SEEDLEN);
	S_add(drng->v, drng->reseed_counter, HB_DRNG_SEEDLEN);
	S_add(drng->reseed_counter, &one, 1);
	return 0;
}
