/* libfloor.c — what a clean build's libraries alone take, with hashgen's own code left out: on
 * one CPU, the evidence read from the disk's cache (every file, as hashgen reads it), SHA-256 of
 * every evidence file (libcrypto, as hashgen checks SHA256SUMS), every JSON file parsed (jansson,
 * as hashgen loads the records, KAT files and system.json) and the .gz twins of every text file
 * of a rendered site (libdeflate level 6, zlib level 1 above 4 MiB, as hashgen writes them).
 * Each step best of R rounds, the steps interleaved in every round.
 *
 * usage: libfloor DATA_DIR SITE_DIR [ROUNDS]      (built and run by benchmarks/gen-bench/libfloor.sh) */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <libdeflate.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

typedef struct {
	char *path;
	unsigned char *data;
	size_t len;
} S_file;

typedef struct {
	S_file *v;
	size_t n, cap, bytes;
} S_set;

static S_set S_evidence, S_json, S_text;

static void S_die(const char *what, const char *path)
{
	fprintf(stderr, "libfloor: %s: %s\n", path, what);
	exit(1);
}

static int S_ends(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);
	return n > e && strcmp(name + n - e, ext) == 0;
}

/* the files hashgen gzips (gztwin.c) */
static int S_twinned(const char *name)
{
	static const char *ext[] = { ".html", ".md", ".css", ".xml", ".csv", ".json", ".svg", NULL };
	size_t i;
	for (i = 0; ext[i]; i++)
		if (S_ends(name, ext[i]))
			return 1;
	return 0;
}

static unsigned char *S_slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned char *b;
	size_t got = 0;
	if (fd < 0 || fstat(fd, &st) != 0)
		S_die("cannot be read", path);
	if (!(b = malloc((size_t)st.st_size + 1)))
		S_die("out of memory", path);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, b + got, (size_t)st.st_size - got);
		if (r <= 0)
			S_die("cannot be read", path);
		got += (size_t)r;
	}
	close(fd);
	*len = got;
	return b;
}

static void S_add(S_set *s, char *path, unsigned char *data, size_t len)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		if (!(s->v = realloc(s->v, s->cap * sizeof(*s->v))))
			S_die("out of memory", path);
	}
	s->v[s->n].path = path;
	s->v[s->n].data = data;
	s->v[s->n].len = len;
	s->n++;
	s->bytes += len;
}

/* evidence: every regular file under DIR (JSON files also in S_json); site: every twinned file
 * outside its data/ (the evidence copies are not twinned) */
static void S_collect(const char *dir, int evidence)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d)
		S_die("cannot be listed", dir);
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char *path;
		unsigned char *data;
		size_t len;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			S_die("out of memory", dir);
		if (lstat(path, &st) != 0)
			S_die("cannot be read", path);
		if (S_ISDIR(st.st_mode)) {
			if (evidence || strcmp(de->d_name, "data") != 0)
				S_collect(path, evidence);
			free(path);
			continue;
		}
		if (!S_ISREG(st.st_mode) || (!evidence && !S_twinned(de->d_name))) {
			free(path);
			continue;
		}
		data = S_slurp(path, &len);
		if (evidence) {
			S_add(&S_evidence, path, data, len);
			if (S_ends(de->d_name, ".json"))
				S_add(&S_json, path, data, len);
		} else {
			S_add(&S_text, path, data, len);
		}
	}
	closedir(d);
}

static double S_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void S_read_all(void)
{
	size_t i, len;
	for (i = 0; i < S_evidence.n; i++)
		free(S_slurp(S_evidence.v[i].path, &len));
}

static void S_sha256_all(void)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n;
	size_t i;
	for (i = 0; i < S_evidence.n; i++)
		if (EVP_Digest(S_evidence.v[i].data, S_evidence.v[i].len, md, &n, EVP_sha256(), NULL) != 1)
			S_die("SHA-256 failed", S_evidence.v[i].path);
}

static void S_parse_all(void)
{
	size_t i;
	for (i = 0; i < S_json.n; i++) {
		json_error_t err;
		json_t *j = json_loadb((const char *)S_json.v[i].data, S_json.v[i].len, 0, &err);
		if (!j)
			S_die(err.text, S_json.v[i].path);
		json_decref(j);
	}
}

static unsigned char *S_out;
static size_t S_outcap;

/* zlib as hashgen uses it above 4 MiB: gzip wrapper, level 1 */
static void S_zlib(const S_file *f)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		S_die("zlib failed", f->path);
	z.next_in = f->data;
	z.avail_in = (uInt)f->len;
	z.next_out = S_out;
	z.avail_out = (uInt)S_outcap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		S_die("zlib failed", f->path);
	deflateEnd(&z);
}

static void S_deflate_all(void)
{
	static struct libdeflate_compressor *c;
	size_t i;
	if (!c && !(c = libdeflate_alloc_compressor(6)))
		S_die("out of memory", "libdeflate");
	for (i = 0; i < S_text.n; i++) {
		if (S_text.v[i].len > ((size_t)4 << 20))
			S_zlib(&S_text.v[i]);
		else if (libdeflate_gzip_compress(c, S_text.v[i].data, S_text.v[i].len, S_out,
				 S_outcap) == 0)
			S_die("libdeflate failed", S_text.v[i].path);
	}
}

static int S_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} step[] = {
		{ "read the evidence", S_read_all },
		{ "SHA-256 (libcrypto)", S_sha256_all },
		{ "parse JSON (jansson)", S_parse_all },
		{ "gzip twins (libdeflate)", S_deflate_all },
	};
	enum { S_NSTEPS = sizeof(step) / sizeof(step[0]), S_MAXR = 32 };
	double t[S_NSTEPS][S_MAXR], sum = 0;
	int rounds = argc > 3 ? atoi(argv[3]) : 5, r, k;
	size_t i;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: libfloor DATA_DIR SITE_DIR [ROUNDS]\n");
		return 2;
	}
	if (rounds < 1 || rounds > S_MAXR) {
		fprintf(stderr, "libfloor: ROUNDS: '%s' is not a number from 1 to %d\n", argv[3], S_MAXR);
		return 2;
	}
	S_collect(argv[1], 1);
	S_collect(argv[2], 0);
	if (!S_json.n || !S_text.n) {
		fprintf(stderr, "libfloor: %s: %s\n", S_json.n ? argv[2] : argv[1],
			S_json.n ? "no file that hashgen gzips (a rendered site?)" :
				   "no JSON evidence (an evidence tree?)");
		return 1;
	}
	for (i = 0; i < S_text.n; i++)
		if (S_text.v[i].len > S_outcap)
			S_outcap = S_text.v[i].len;
	S_outcap += S_outcap / 8 + 1024;
	if (!(S_out = malloc(S_outcap)))
		S_die("out of memory", argv[2]);
	printf("evidence: %zu files, %.1f MB (%zu JSON, %.1f MB); site: %zu files to gzip, %.1f MB\n",
		S_evidence.n, (double)S_evidence.bytes / 1e6, S_json.n, (double)S_json.bytes / 1e6,
		S_text.n, (double)S_text.bytes / 1e6);
	/* every step in every round, the order turning by one each round, so that a slow spell of
	 * the host does not land on one step alone */
	for (r = 0; r < rounds; r++)
		for (k = 0; k < S_NSTEPS; k++) {
			int s = (r + k) % S_NSTEPS;
			double t0 = S_now();
			step[s].run();
			t[s][r] = S_now() - t0;
		}
	printf("%-26s %9s %9s %9s\n", "step (one CPU)", "best_s", "median_s", "worst_s");
	for (k = 0; k < S_NSTEPS; k++) {
		qsort(t[k], (size_t)rounds, sizeof(double), S_cmp);
		printf("%-26s %9.3f %9.3f %9.3f\n", step[k].name, t[k][0], t[k][rounds / 2],
			t[k][rounds - 1]);
		sum += t[k][0];
	}
	printf("%-26s %9.3f\n", "all steps (sum of bests)", sum);
	return 0;
}
