/* gzbench.c — zlib against libdeflate on the gzip twins of a rendered site: every file hashgen
 * compresses (.html .md .css .xml .csv .json .svg) compressed as hashgen does (gzip, level 6;
 * level 1 above 4 MiB) with each library, best of R rounds, and the bytes each writes.
 *
 * usage: gzbench SITE_DIR [ROUNDS]      (built and run by benchmarks/gen-bench/gzbench.sh) */
#define _GNU_SOURCE
#include <dirent.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

typedef struct {
	unsigned char *data;
	size_t len;
} S_file;

static S_file *S_files;
static size_t S_nfiles, S_cap, S_bytes;

static int S_twinned(const char *name)
{
	static const char *ext[] = { ".html", ".md", ".css", ".xml", ".csv", ".json", ".svg", NULL };
	size_t n = strlen(name), i;
	for (i = 0; ext[i]; i++) {
		size_t e = strlen(ext[i]);
		if (n > e && strcmp(name + n - e, ext[i]) == 0)
			return 1;
	}
	return 0;
}

static void S_collect(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		FILE *f;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			/* the evidence copies under data/ are not twinned */
			if (strcmp(de->d_name, "data") != 0)
				S_collect(path);
			continue;
		}
		if (!S_ISREG(st.st_mode) || !S_twinned(de->d_name) || !(f = fopen(path, "rb")))
			continue;
		if (S_nfiles == S_cap) {
			S_cap = S_cap ? 2 * S_cap : 256;
			S_files = realloc(S_files, S_cap * sizeof(*S_files));
		}
		S_files[S_nfiles].data = malloc((size_t)st.st_size + 1);
		S_files[S_nfiles].len = fread(S_files[S_nfiles].data, 1, (size_t)st.st_size, f);
		S_bytes += S_files[S_nfiles].len;
		S_nfiles++;
		fclose(f);
	}
	closedir(d);
}

static double S_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int S_level(size_t len)
{
	return len > (4u << 20) ? 1 : 6;
}

/* zlib as hashgen uses it: deflateInit2 with a gzip wrapper, one deflate call. */
static size_t S_zlib(unsigned char *out, size_t cap, const S_file *f)
{
	z_stream z;
	size_t n;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, S_level(f->len), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
	z.next_in = f->data;
	z.avail_in = (uInt)f->len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		exit(1);
	n = z.total_out;
	deflateEnd(&z);
	return n;
}

static size_t S_libdeflate(unsigned char *out, size_t cap, const S_file *f,
	struct libdeflate_compressor **c)
{
	size_t n = libdeflate_gzip_compress(c[S_level(f->len)], f->data, f->len, out, cap);
	if (n == 0)
		exit(1);
	return n;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 5, r, which, k, j;
	double t[2][64];
	size_t bytes[2] = { 0, 0 };
	struct libdeflate_compressor *c[7] = { 0 };
	size_t cap = 0, i;
	unsigned char *out;

	if (argc < 2) {
		fprintf(stderr, "usage: gzbench SITE_DIR [ROUNDS]\n");
		return 2;
	}
	S_collect(argv[1]);
	if (!S_nfiles) {
		fprintf(stderr, "gzbench: %s: no file to compress\n", argv[1]);
		return 1;
	}
	for (i = 0; i < S_nfiles; i++)
		if (S_files[i].len > cap)
			cap = S_files[i].len;
	cap = cap + cap / 8 + 1024;
	out = malloc(cap);
	c[1] = libdeflate_alloc_compressor(1);
	c[6] = libdeflate_alloc_compressor(6);
	printf("%zu files, %.1f MB\n", S_nfiles, (double)S_bytes / 1e6);
	printf("%-10s %12s %12s %12s %10s\n", "library", "best_s", "median_s", "worst_s", "out_MB");
	if (rounds < 1 || rounds > 64)
		rounds = 5;
	/* interleaved: in every round both libraries, in alternating order, so that a slow spell of
	 * the host lands on both alike */
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 2; k++) {
			double t0;
			which = (r + k) % 2;
			t0 = S_now();
			bytes[which] = 0;
			for (i = 0; i < S_nfiles; i++)
				bytes[which] += which == 0 ? S_zlib(out, cap, &S_files[i]) :
					S_libdeflate(out, cap, &S_files[i], c);
			t[which][r] = S_now() - t0;
		}
	for (which = 0; which < 2; which++) {
		for (k = 1; k < rounds; k++)
			for (j = k; j > 0 && t[which][j - 1] > t[which][j]; j--) {
				double x = t[which][j];
				t[which][j] = t[which][j - 1];
				t[which][j - 1] = x;
			}
		printf("%-10s %12.3f %12.3f %12.3f %10.2f\n", which == 0 ? "zlib" : "libdeflate",
			t[which][0], t[which][rounds / 2], t[which][rounds - 1], (double)bytes[which] / 1e6);
	}
	libdeflate_free_compressor(c[1]);
	libdeflate_free_compressor(c[6]);
	return 0;
}
