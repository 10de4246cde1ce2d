/* test_gztwin.c — a download written as a stream is byte for byte the file and gzip twin that
 * the same text written at once gives (below and above the 4 MiB where the level changes; above
 * it, zlib's bytes at level 1 in one call, as the downloads were before), its twin unpacks to the
 * text, the size and SHA-256 summed as it is written are the text's, and a file that cannot be
 * written is named in the error. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "genutil.h"
#include "support.h"

/* n bytes of text like a download's rows: numbers that repeat in part, so deflate has work. */
static char *S_text(size_t n)
{
	char *t = malloc(n + 1);
	unsigned long long x = 0x9e3779b97f4a7c15ULL;
	size_t i = 0;
	cr_assert(t);
	while (i < n) {
		char row[96];
		int k;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = snprintf(row, sizeof(row), "x86_1,hash-%04llu,SHA-256,optimized,%llu,ok,%.6f\r\n",
			x % 1000, 32ULL << (x % 12), (double)(x % 100000) / 7.0);
		if ((size_t)k > n - i)
			k = (int)(n - i);
		memcpy(t + i, row, (size_t)k);
		i += (size_t)k;
	}
	t[n] = 0;
	return t;
}

static char *S_read(const char *path, size_t *len)
{
	char *text;
	cr_assert_eq(hg_read_file(&text, len, path), 0, "%s: %s", path, hg_error_last());
	return text;
}

/* The text written to path in pieces of odd sizes through the stream, which sums it as it goes. */
static void S_stream(const char *path, const char *text, size_t n)
{
	hg_filesum sum;
	FILE *f = hg_gztwin_open_sum(path, &sum);
	size_t i = 0, step = 1;
	char hex[65];
	cr_assert(f, "%s", hg_error_last());
	while (i < n) {
		size_t k = step < n - i ? step : n - i;
		cr_assert_eq(fwrite(text + i, 1, k, f), k);
		i += k;
		step = step * 3 + 1 > 300000 ? 7 : step * 3 + 1;
	}
	cr_assert_eq(hg_gztwin_close(f), 0, "%s", hg_error_last());
	hg_sha256_hex(hex, text, n);
	cr_expect_str_eq(sum.sha256, hex, "%s: the stream's SHA-256 is not the text's", path);
	cr_expect_eq(sum.bytes, n, "%s: the stream counted %llu bytes, not %zu", path, sum.bytes, n);
}

static void S_same(const char *a, const char *b)
{
	size_t la, lb;
	char *x = S_read(a, &la), *y = S_read(b, &lb);
	cr_expect(la == lb && memcmp(x, y, la) == 0, "%s (%zu bytes) and %s (%zu bytes) differ", a,
		la, b, lb);
	free(x);
	free(y);
}

/* The gzip zlib writes for text in one call (level 1, no timestamp): what the downloads were
 * before they were streamed, and must stay. */
static void S_expect_zlib_level1(const char *gzpath, const char *text, size_t n)
{
	z_stream z;
	size_t cap, got;
	unsigned char *want;
	char *have;
	memset(&z, 0, sizeof(z));
	cr_assert_eq(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	cap = deflateBound(&z, (uLong)n) + 32;
	want = malloc(cap);
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)n;
	z.next_out = want;
	z.avail_out = (uInt)cap;
	cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	deflateEnd(&z);
	have = S_read(gzpath, &got);
	cr_expect(got == cap - z.avail_out && memcmp(have, want, got) == 0, "%s: not the bytes of "
		"zlib at level 1 in one call (%zu bytes, %zu expected)", gzpath, got,
		(size_t)(cap - z.avail_out));
	free(have);
	free(want);
}

static void S_round_trip(size_t n)
{
	char *dir = hbt_tmpdir("gztwin"), *text = S_text(n);
	char *streamed = hg_xprintf("%s/streamed.json", dir), *whole = hg_xprintf("%s/whole.json", dir);
	char *sgz = hg_xprintf("%s.gz", streamed), *wgz = hg_xprintf("%s.gz", whole), *back;
	gzFile g;
	int got;

	S_stream(streamed, text, n);
	cr_assert_eq(hg_write_with_gz(whole, text, n), 0, "%s", hg_error_last());
	S_same(streamed, whole);
	S_same(sgz, wgz);
	if (n > (4u << 20))
		S_expect_zlib_level1(sgz, text, n);
	back = malloc(n + 1);
	g = gzopen(sgz, "rb");
	cr_assert(g);
	got = gzread(g, back, (unsigned)n + 1);
	gzclose(g);
	cr_expect(got == (int)n && memcmp(back, text, n) == 0, "%s unpacks to %d bytes, not the %zu "
		"written", sgz, got, n);
	free(back);
	free(text);
	free(streamed);
	free(whole);
	free(sgz);
	free(wgz);
	free(dir);
}

Test(gztwin, a_small_text_streamed_is_the_text_written_at_once)
{
	S_round_trip(200000);
}

Test(gztwin, a_download_over_4_mib_streamed_is_the_text_written_at_once)
{
	S_round_trip((9u << 20) + 12345);
}

Test(gztwin, an_empty_stream_gives_an_empty_file_and_its_twin)
{
	S_round_trip(0);
}

Test(gztwin, a_folder_that_is_not_there_is_named)
{
	char *dir = hbt_tmpdir("gztwin-missing"), *path = hg_xprintf("%s/nope/results.csv", dir);
	cr_expect_null(hg_gztwin_open(path));
	cr_expect(strstr(hg_error_last(), path) != NULL, "the error does not name %s: %s", path,
		hg_error_last());
	free(path);
	free(dir);
}

Test(gztwin, a_write_that_fails_is_named_at_close)
{
	char *dir = hbt_tmpdir("gztwin-full"), *path = hg_xprintf("%s/results.json", dir);
	char *text = S_text(1 << 20);
	FILE *f;
	if (access("/dev/full", W_OK) != 0)
		cr_skip_test("/dev/full is not writable here");
	cr_assert_eq(symlink("/dev/full", path), 0);
	f = hg_gztwin_open(path);
	cr_assert(f, "%s", hg_error_last());
	fwrite(text, 1, 1 << 20, f);
	cr_expect_eq(hg_gztwin_close(f), -1, "a write to /dev/full was not noticed");
	cr_expect(strstr(hg_error_last(), path) && strstr(hg_error_last(), "write failed"),
		"the error does not name %s: %s", path, hg_error_last());
	free(text);
	free(path);
	free(dir);
}
