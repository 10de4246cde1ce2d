/* test_baselines.c — the bundled baselines (SM3, SHA-2, SHA-3, SHAKE256) reproduce the official
 * vectors in ../shared/kat, agree with OpenSSL and follow the CryptHash bit-length convention. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

/* After support.h: criterion.h must come before criterion/parameterized.h. */
#include "support.h"
#include <criterion/parameterized.h>

#define S_MAX_OUT 256 /* bytes: the longest output any test asks for (SHAKE256, 2000 bits) */
#define S_NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const S_specs[] = { "SM3", "SHA-256", "SHA-512", "SHA3-256", "SHA3-512",
	"SHAKE256" };

static char *S_hex(const unsigned char *in, size_t len)
{
	char *hex = malloc(2 * len + 1);
	hb_hex(hex, in, len, 0);
	return hex;
}

/* ---- official vector files ---- */

/* Criterion may run each parameter in a fresh process image: arrays, not pointers. */
typedef struct {
	char file[48];  /* under ../shared */
	char spec[16];  /* baseline instance */
	size_t records; /* as counted in kat/SOURCES.md or kat/bits/SOURCES.md */
} S_katfile;

static S_katfile S_katfiles[] = {
	{ "kat/sha256/SHA256ShortMsg.rsp", "SHA-256", 65 },
	{ "kat/sha256/SHA256LongMsg.rsp", "SHA-256", 64 },
	{ "kat/sha512/SHA512ShortMsg.rsp", "SHA-512", 129 },
	{ "kat/sha512/SHA512LongMsg.rsp", "SHA-512", 128 },
	{ "kat/sha3-256/SHA3_256ShortMsg.rsp", "SHA3-256", 137 },
	{ "kat/sha3-256/SHA3_256LongMsg.rsp", "SHA3-256", 100 },
	{ "kat/sha3-512/SHA3_512ShortMsg.rsp", "SHA3-512", 73 },
	{ "kat/sha3-512/SHA3_512LongMsg.rsp", "SHA3-512", 100 },
	{ "kat/shake256/SHAKE256ShortMsg.rsp", "SHAKE256", 273 },
	{ "kat/shake256/SHAKE256VariableOut.rsp", "SHAKE256", 1246 },
	{ "kat/bits/sha256/SHA256ShortMsg.rsp", "SHA-256", 513 },
	{ "kat/bits/sha256/SHA256LongMsg.rsp", "SHA-256", 512 },
	{ "kat/bits/sha512/SHA512ShortMsg.rsp", "SHA-512", 1025 },
	{ "kat/bits/sha3-256/SHA3_256ShortMsg.rsp", "SHA3-256", 1089 },
	{ "kat/bits/sha3-256/SHA3_256LongMsg.rsp", "SHA3-256", 100 },
	{ "kat/bits/sha3-512/SHA3_512ShortMsg.rsp", "SHA3-512", 577 },
	{ "kat/bits/sha3-512/SHA3_512LongMsg.rsp", "SHA3-512", 100 },
	{ "kat/bits/shake256/SHAKE256ShortMsg.rsp", "SHAKE256", 2177 },
	{ "kat/bits/shake256/SHAKE256LongMsg.rsp", "SHAKE256", 100 },
	{ "kat/sm3/oscca.txt", "SM3", 6 },
	{ "kat/sm3/sm3.vec", "SM3", 139 },
};

typedef struct {
	long len;         /* Len in bits; -1 when the file has none (VariableOut, .vec) */
	long outbits;     /* Outputlen of the record or its [Outputlen = N] section; -1 when none */
	const char *msg;  /* Msg / In, hex */
	const char *md;   /* MD / Output / Out, hex */
	int line;         /* line of the digest */
} S_record;

/* The one parser: calls fn for every record of a NIST .rsp file or a Botan .vec file (text is
 * cut up in place). A record ends at its digest line; CRLF, '#' comments, section headers
 * and a missing final newline are accepted, anything else fails the test. Returns the count. */
static size_t S_records(char *text, const char *file, void (*fn)(const S_record *, void *),
	void *arg)
{
	S_record rec = { -1, -1, NULL, NULL, 0 };
	long section_outbits = -1;
	size_t count = 0;
	int line = 0;
	char *p = text, *key, *val, *end;

	while (*p) {
		char *nl = strchr(p, '\n');
		line++;
		if (nl)
			*nl = '\0';
		key = p;
		p = nl ? nl + 1 : p + strlen(p);
		end = key + strlen(key);
		while (end > key && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (*key == '\0' || *key == '#')
			continue;
		if (*key == '[') {
			sscanf(key, "[Outputlen = %ld]", &section_outbits);
			rec.outbits = section_outbits;
			continue;
		}
		val = strstr(key, " ="); /* "In =" is the empty message */
		cr_assert_not_null(val, "%s:%d: cannot parse \"%s\"", file, line, key);
		*val = '\0';
		val += strspn(val + 2, " ") + 2;
		if (strcmp(key, "Len") == 0)
			rec.len = strtol(val, NULL, 10);
		else if (strcmp(key, "Outputlen") == 0)
			rec.outbits = strtol(val, NULL, 10);
		else if (strcmp(key, "Msg") == 0 || strcmp(key, "In") == 0)
			rec.msg = val;
		else if (strcmp(key, "MD") == 0 || strcmp(key, "Output") == 0 || strcmp(key, "Out") == 0) {
			cr_assert_not_null(rec.msg, "%s:%d: digest without a message", file, line);
			rec.md = val;
			rec.line = line;
			fn(&rec, arg);
			count++;
			rec = (S_record){ -1, section_outbits, NULL, NULL, 0 };
		} else
			cr_assert_str_eq(key, "COUNT", "%s:%d: unknown field", file, line);
	}
	return count;
}

typedef struct {
	const S_katfile *kf;
	const hb_impl *impl;
	int digest_bits;
	size_t checked, failed;
} S_run;

static void S_check_record(const S_record *rec, void *arg)
{
	S_run *run = arg;
	size_t hexlen = strlen(rec->msg), n = hexlen / 2;
	long bits = rec->len >= 0 ? rec->len : (long)(4 * hexlen);
	int outbits = rec->outbits > 0 ? (int)rec->outbits : run->digest_bits, r = (int)(bits % 8);
	int fips202 = strncmp(run->kf->spec, "SHA3", 4) == 0 ||
		strncmp(run->kf->spec, "SHAKE", 5) == 0;
	unsigned char *msg = malloc(n + 1), want[S_MAX_OUT], got[S_MAX_OUT];
	const char *file = run->kf->file;

	cr_assert_eq(hb_unhex(msg, n + 1, rec->msg, hexlen), (long)n, "%s:%d: bad Msg", file,
		rec->line);
	/* Len = 0 records carry the placeholder Msg = 00. */
	cr_assert(n == (size_t)(bits + 7) / 8 || (bits == 0 && n == 1),
		"%s:%d: Msg has %zu bytes for Len = %ld", file, rec->line, n, bits);
	cr_assert_eq(hb_unhex(want, sizeof(want), rec->md, strlen(rec->md)) * 8, outbits,
		"%s:%d: digest is not %d bits", file, rec->line, outbits);
	/* FIPS 202 bit files keep a partial byte's bits at the low end, CryptHash at the high end. */
	if (fips202 && r != 0)
		msg[n - 1] = (unsigned char)((msg[n - 1] << (8 - r)) & 0xFF);
	cr_assert_eq(hb_impl_hash(run->impl, outbits, msg, (unsigned long long)bits, got), 0,
		"%s:%d: Len = %ld: %s", file, rec->line, bits, hb_error_last());
	if (memcmp(got, want, (size_t)outbits / 8) != 0 && ++run->failed <= 5) {
		char *g = S_hex(got, (size_t)outbits / 8);
		cr_expect_fail("%s:%d: Len = %ld, %d-bit output: expected %s, got %s", file, rec->line,
			bits, outbits, rec->md, g);
		free(g);
	}
	run->checked++;
	free(msg);
}

ParameterizedTestParameters(baselines, official_vectors)
{
	return cr_make_param_array(S_katfile, S_katfiles, S_NELEM(S_katfiles));
}

ParameterizedTest(S_katfile *kf, baselines, official_vectors)
{
	char *path;
	hb_buf buf;
	size_t found;
	S_run run = { kf, NULL, 0, 0, 0 };

	HBT_REQUIRE_SHARED();
	run.impl = hbt_impl(kf->spec);
	run.digest_bits = hbt_instance(kf->spec)->digest_bits;
	path = hbt_shared_path(kf->file);
	cr_assert_eq(hb_file_read(&buf, path), 0, "%s", hb_error_last());
	found = S_records((char *)buf.data, kf->file, S_check_record, &run);
	cr_log_info("%s: %zu records checked, %zu differ", kf->file, run.checked, run.failed);
	cr_assert_gt(run.checked, 0, "%s: no records", kf->file);
	cr_assert_eq(run.checked, found);
	cr_assert_eq(found, kf->records, "%s: %zu records found, SOURCES.md counts %zu", kf->file,
		found, kf->records);
	cr_assert_eq(run.failed, 0, "%s: %zu of %zu records give another digest", kf->file,
		run.failed, run.checked);
	hb_buf_free(&buf);
	free(path);
}

/* ---- agreement with OpenSSL on random byte messages ---- */

static uint64_t S_rand(uint64_t *state) /* splitmix64: fixed seed, same messages every run */
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static void S_evp(unsigned char *out, size_t outlen, const EVP_MD *md, const unsigned char *msg,
	size_t len)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;
	cr_assert(ctx && EVP_DigestInit_ex(ctx, md, NULL) && EVP_DigestUpdate(ctx, msg, len));
	cr_assert(xof ? EVP_DigestFinalXOF(ctx, out, outlen) : EVP_DigestFinal_ex(ctx, out, NULL));
	EVP_MD_CTX_free(ctx);
}

/* 200 random byte messages of 0 to 4096 bytes (0 and 4096 included) and one of 1 MiB, at the
 * default output length and, for an XOF, at 512 and 2000 bits too. */
static void S_agree(const char *spec, const EVP_MD *md)
{
	enum { NRANDOM = 200, MAXLEN = 4096, BIG = 1 << 20 };
	const hb_impl *impl = hbt_impl(spec);
	int xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;
	int outs[3] = { hbt_instance(spec)->digest_bits, 512, 2000 }, nouts = xof ? 3 : 1;
	unsigned char *data = malloc(BIG), want[S_MAX_OUT], got[S_MAX_OUT];
	uint64_t state = 20261130;
	size_t i, len;
	int o;

	if (!xof)
		cr_assert_eq(EVP_MD_get_size(md) * 8, outs[0], "%s: digest length", spec);
	for (i = 0; i < BIG; i++)
		data[i] = (unsigned char)S_rand(&state);
	/* Messages 0 and 1 are the extremes, the last one is the 1 MiB message. */
	for (i = 0; i < NRANDOM + 1; i++) {
		const unsigned char *msg = data;
		if (i == NRANDOM)
			len = BIG;
		else {
			len = i == 0 ? 0 : i == 1 ? MAXLEN : S_rand(&state) % (MAXLEN + 1);
			msg = data + S_rand(&state) % (BIG - MAXLEN);
		}
		for (o = 0; o < nouts; o++) {
			size_t outlen = (size_t)outs[o] / 8;
			S_evp(want, outlen, md, msg, len);
			cr_assert_eq(hb_impl_hash(impl, outs[o], msg, 8ULL * len, got), 0, "%s: %s",
				spec, hb_error_last());
			if (memcmp(got, want, outlen) != 0) {
				char *w = S_hex(want, outlen), *g = S_hex(got, outlen);
				cr_assert_fail("%s: message %zu (%zu bytes), %d-bit output: OpenSSL %s, "
					"baseline %s", spec, i, len, outs[o], w, g);
			}
		}
	}
	free(data);
}

Test(baselines, sm3_agrees_with_openssl) { S_agree("SM3", EVP_sm3()); }
Test(baselines, sha256_agrees_with_openssl) { S_agree("SHA-256", EVP_sha256()); }
Test(baselines, sha512_agrees_with_openssl) { S_agree("SHA-512", EVP_sha512()); }
Test(baselines, sha3_256_agrees_with_openssl) { S_agree("SHA3-256", EVP_sha3_256()); }
Test(baselines, sha3_512_agrees_with_openssl) { S_agree("SHA3-512", EVP_sha3_512()); }
Test(baselines, shake256_agrees_with_openssl) { S_agree("SHAKE256", EVP_shake256()); }

/* ---- messages whose length is not a multiple of 8 bits ---- */

typedef struct {
	const char *spec;
	unsigned long long bits;
	const char *msg, *digest; /* hex */
} S_bitvec;

static const S_bitvec S_bitvecs[] = {
	{ "SM3", 1, "80", "985ffe9568be96328729b1c16631e9328d356432413d7556a646b9eefe479b9e" },
	{ "SM3", 2, "40", "fc939da34924d82ac330120e305820cde470117412b59dc71ca1da5637acea21" },
	/* The worked examples of kat/bits/SOURCES.md, the SHA3-256 one after Rule A. */
	{ "SHA-256", 13, "9a08", "506a096f492e84ff5578d6106d701f54bc23296d5897fdb9413b45b04ab7b8cb" },
	{ "SHA3-256", 13, "3ee0", "4b1a930e289fda5a38cc6e7a5fd47678fb11ddfed3b521a03b82a4a3872d561e" },
};

Test(baselines, bit_length_messages)
{
	size_t i;
	for (i = 0; i < S_NELEM(S_bitvecs); i++) {
		const S_bitvec *v = &S_bitvecs[i];
		unsigned char msg[8], got[S_MAX_OUT];
		char *g;
		int bits = hbt_instance(v->spec)->digest_bits;
		hb_unhex(msg, sizeof(msg), v->msg, strlen(v->msg));
		cr_assert_eq(hb_impl_hash(hbt_impl(v->spec), bits, msg, v->bits, got), 0, "%s: %s",
			v->spec, hb_error_last());
		g = S_hex(got, (size_t)bits / 8);
		cr_expect_str_eq(g, v->digest, "%s of the %llu-bit message %s: expected %s, got %s",
			v->spec, v->bits, v->msg, v->digest, g);
		free(g);
	}
}

Test(baselines, unused_low_bits_are_ignored)
{
	static const unsigned char zero[2] = { 0x9a, 0x08 }, ones[2] = { 0x9a, 0x0f };
	size_t i;
	for (i = 0; i < S_NELEM(S_specs); i++) {
		const hb_impl *impl = hbt_impl(S_specs[i]);
		int bits = hbt_instance(S_specs[i])->digest_bits;
		unsigned char a[S_MAX_OUT], b[S_MAX_OUT];
		cr_assert_eq(hb_impl_hash(impl, bits, zero, 13, a), 0, "%s", hb_error_last());
		cr_assert_eq(hb_impl_hash(impl, bits, ones, 13, b), 0, "%s", hb_error_last());
		cr_expect_eq(memcmp(a, b, (size_t)bits / 8), 0,
			"%s: 13 bits of 9a08 and 9a0f hash differently", S_specs[i]);
	}
}

/* ---- fixed-length instances ---- */

Test(baselines, fixed_length_refuses_other_lengths)
{
	static const int asks[] = { 8, 224, 255, 256, 384, 512, 1024 };
	size_t i, j;
	for (i = 0; i < S_NELEM(S_specs); i++) {
		int own = hbt_instance(S_specs[i])->digest_bits;
		if (strncmp(S_specs[i], "SHAKE", 5) == 0)
			continue;
		for (j = 0; j < S_NELEM(asks); j++) {
			unsigned char out[S_MAX_OUT];
			if (asks[j] != own)
				cr_expect_neq(hb_impl_hash(hbt_impl(S_specs[i]), asks[j],
					(const unsigned char *)"abc", 24, out), 0,
					"%s (%d bits) accepted a %d-bit digest", S_specs[i], own, asks[j]);
		}
	}
}
