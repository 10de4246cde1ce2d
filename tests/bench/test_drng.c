/* test_drng.c — the SM3 Hash_DRBG reproduces the ICCS generator's own state and outputs. */
#include <stdlib.h>
#include <string.h>

#include "hbkat.h"
#include "support.h"

/* Value of "label = value" in drng-vectors.txt (caller frees), NULL when absent. */
static char *S_value(const char *text, const char *label)
{
	size_t n = strlen(label);
	const char *p = text;
	while ((p = strstr(p, label)) != NULL) {
		if ((p == text || p[-1] == '\n') && strncmp(p + n, " = ", 3) == 0) {
			const char *v = p + n + 3, *e = strchr(v, '\n');
			return strndup(v, e ? (size_t)(e - v) : strlen(v));
		}
		p += n;
	}
	return NULL;
}

static void S_expect_hex(const unsigned char *got, size_t len, const char *want, const char *what)
{
	char *hex = malloc(2 * len + 1);
	hb_hex(hex, got, len, 1);
	cr_expect_str_eq(hex, want, "%s", what);
	free(hex);
}

Test(drng, reproduces_iccs_state_and_outputs)
{
	char *path, *text, *seedhex, *v;
	unsigned char seed[64], out[256];
	hb_buf buf;
	hb_drng drng;
	int call;

	HBT_REQUIRE_SHARED();
	path = hbt_shared_path("kat/ngcc/drng-vectors.txt");
	cr_assert_eq(hb_file_read(&buf, path), 0, "%s", hb_error_last());
	text = (char *)buf.data;
	seedhex = S_value(text, "seed");
	cr_assert_not_null(seedhex);
	cr_assert_eq(hb_unhex(seed, sizeof(seed), seedhex, strlen(seedhex)), 64);
	cr_assert_eq(memcmp(seed, "KAT_2_12KAT_2_12", 16), 0, "the seed is the file name, repeated");

	cr_assert_eq(hb_drng_init(&drng, seed, sizeof(seed)), 0, "%s", hb_error_last());
	S_expect_hex(drng.v, HB_DRNG_SEEDLEN, v = S_value(text, "instantiate.V"), "V");
	free(v);
	S_expect_hex(drng.c, HB_DRNG_SEEDLEN, v = S_value(text, "instantiate.C"), "C");
	free(v);
	S_expect_hex(drng.reseed_counter, HB_DRNG_SEEDLEN,
		v = S_value(text, "instantiate.reseed_counter"), "reseed_counter");
	free(v);

	for (call = 1; ; call++) {
		char label[64], *bits_s, *want_out, *want_v;
		unsigned long bits;
		snprintf(label, sizeof(label), "generate.%d.bits", call);
		bits_s = S_value(text, label);
		if (!bits_s)
			break;
		bits = strtoul(bits_s, NULL, 10);
		snprintf(label, sizeof(label), "generate.%d.out", call);
		want_out = S_value(text, label);
		snprintf(label, sizeof(label), "generate.%d.V", call);
		want_v = S_value(text, label);
		cr_assert(want_out && want_v && bits <= 8 * sizeof(out));
		memset(out, 0, sizeof(out));
		cr_assert_eq(hb_drng_generate(&drng, out, bits), 0);
		snprintf(label, sizeof(label), "generate.%d (%lu bits) output", call, bits);
		S_expect_hex(out, (bits + 7) / 8, want_out, label);
		snprintf(label, sizeof(label), "generate.%d V after the call", call);
		S_expect_hex(drng.v, HB_DRNG_SEEDLEN, want_v, label);
		free(bits_s);
		free(want_out);
		free(want_v);
	}
	cr_expect_eq(call, 11, "all ten generate calls of the file were checked");
	free(seedhex);
	free(path);
	hb_buf_free(&buf);
}

Test(drng, clears_unused_low_bits_and_advances_on_zero_bits)
{
	unsigned char seed[64] = { 0 }, out[4], before[HB_DRNG_SEEDLEN];
	hb_drng drng;

	cr_assert_eq(hb_drng_init(&drng, seed, sizeof(seed)), 0);
	memcpy(before, drng.v, sizeof(before));
	cr_assert_eq(hb_drng_generate(&drng, out, 0), 0);
	cr_expect_neq(memcmp(before, drng.v, sizeof(before)), 0, "a 0-bit call still updates V");
	memset(out, 0xff, sizeof(out));
	cr_assert_eq(hb_drng_generate(&drng, out, 13), 0);
	cr_expect_eq(out[1] & 0x07, 0, "the 3 unused low bits of the second byte are zero");
	cr_expect_eq(drng.reseed_counter[HB_DRNG_SEEDLEN - 1], 3);
}
