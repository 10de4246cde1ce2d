/* gztwin.c — a file and its gzip twin (path.gz, no timestamp in the header), written from one
 * buffer or as a stream in bounded memory, the same bytes either way: up to 4 MiB (the pages)
 * deflated at level 4 by libdeflate (level 6 made the twins 1.7 % smaller and the site's build
 * 10 % slower: docs/benchmarks.md); larger (the downloads) at level 1 by zlib, which can deflate
 * a stream. A stream can also give the file's size and SHA-256, hashed as the bytes pass. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdeflate.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "genutil.h"

/* Files larger than this (the site's downloads) are compressed at level 1, the rest at 4. */
#define S_BIG ((size_t)4 << 20)

static unsigned char *S_alloc(size_t n)
{
	unsigned char *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	return p;
}

/* windowBits 15 + 16: a gzip wrapper; zlib writes mtime 0 unless told otherwise */
static int S_deflate_init(z_stream *z)
{
	memset(z, 0, sizeof(*z));
	return deflateInit2(z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK ? 0 : -1;
}

/* Each thread's libdeflate compressor at level 4, made on first use (hg_gztwin_release). */
static __thread struct libdeflate_compressor *S_ld;

void hg_gztwin_release(void)
{
	libdeflate_free_compressor(S_ld);
	S_ld = NULL;
}

/* data (S_BIG or less) as gzip at level 4: *out (the caller's) and its length, or -1 (path
 * names the file). */
static int S_gz_bytes(unsigned char **out, size_t *outlen, const void *data, size_t len,
	const char *path)
{
	size_t cap;

	*out = NULL;
	if (!S_ld && !(S_ld = libdeflate_alloc_compressor(4)))
		return hg_error_set("%s: libdeflate failed", path);
	cap = libdeflate_gzip_compress_bound(S_ld, len);
	*out = S_alloc(cap);
	*outlen = libdeflate_gzip_compress(S_ld, data, len, *out, cap);
	if (*outlen == 0) {
		free(*out);
		*out = NULL;
		return hg_error_set("%s: libdeflate failed", path);
	}
	return 0;
}

int hg_write_with_gz(const char *path, const void *data, size_t len)
{
	unsigned char *buf;
	size_t n;
	char *gz;
	int rc;

	if (len > S_BIG) {
		/* a download: zlib's level 1 through the stream, which makes the same bytes */
		FILE *f = hg_gztwin_open(path);
		if (!f)
			return -1;
		fwrite(data, 1, len, f);
		return hg_gztwin_close(f);
	}
	if (hg_write_file(path, data, len) != 0)
		return -1;
	gz = hg_xprintf("%s.gz", path);
	rc = S_gz_bytes(&buf, &n, data, len, gz);
	if (rc == 0)
		rc = hg_write_file(gz, buf, n);
	free(buf);
	free(gz);
	return rc;
}

/* ---- the stream: what hg_write_with_gz writes, without the whole text in memory ---- */

typedef struct {
	char *path, *gzpath;
	int fd, gzfd;
	unsigned char *held;   /* the first S_BIG bytes, until the size (and so the level) is known */
	size_t nheld;
	int streaming;         /* more than S_BIG: deflating at level 1 as the bytes come */
	z_stream z;
	unsigned char out[1 << 16];
	char error[512];
	EVP_MD_CTX *md;        /* hashing what path receives, for sum; NULL: not asked */
	hg_filesum *sum;
	unsigned long long bytes;
} S_twin;

static int S_fail(S_twin *t, const char *what, const char *path)
{
	if (!t->error[0])
		snprintf(t->error, sizeof(t->error), "%s: %s%s%s", path, what, errno ? ": " : "",
			errno ? strerror(errno) : "");
	return -1;
}

/* Deflate what is in t->z's input (finishing when flush is Z_FINISH) into the .gz file. */
static int S_pump(S_twin *t, int flush)
{
	int rc;
	do {
		t->z.next_out = t->out;
		t->z.avail_out = sizeof(t->out);
		rc = deflate(&t->z, flush);
		if (rc == Z_STREAM_ERROR)
			return S_fail(t, "zlib failed", t->gzpath);
		errno = 0;
		if (hg_write_all(t->gzfd, t->out, sizeof(t->out) - t->z.avail_out) != 0)
			return S_fail(t, "write failed", t->gzpath);
	} while (t->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
	return 0;
}

static int S_feed(S_twin *t, const void *data, size_t len)
{
	t->z.next_in = (Bytef *)data;
	t->z.avail_in = (uInt)len;
	return S_pump(t, Z_NO_FLUSH);
}

static ssize_t S_twin_write(void *cookie, const char *buf, size_t size)
{
	S_twin *t = cookie;
	/* the stream's write: the bytes taken, 0 on error (never negative: fopencookie(3)) */
	if (t->error[0])
		return 0;
	errno = 0;
	if (hg_write_all(t->fd, buf, size) != 0)
		return S_fail(t, "write failed", t->path) + 1;
	if (t->md && EVP_DigestUpdate(t->md, buf, size) != 1)
		return S_fail(t, "SHA-256 failed", t->path) + 1;
	t->bytes += size;
	if (!t->streaming && t->nheld + size <= S_BIG) {
		memcpy(t->held + t->nheld, buf, size);
		t->nheld += size;
		return (ssize_t)size;
	}
	if (!t->streaming) {
		/* over S_BIG: a download, level 1; what was held goes first */
		if (S_deflate_init(&t->z) != 0)
			return S_fail(t, "zlib failed", t->gzpath) + 1;
		t->streaming = 1;
		if (S_feed(t, t->held, t->nheld) != 0)
			return 0;
		free(t->held);
		t->held = NULL;
	}
	return S_feed(t, buf, size) == 0 ? (ssize_t)size : 0;
}

static int S_twin_close(void *cookie)
{
	S_twin *t = cookie;
	int rc = t->error[0] ? -1 : 0;

	if (rc == 0 && t->streaming) {
		rc = S_pump(t, Z_FINISH);
	} else if (rc == 0) {
		/* S_BIG or less: deflated as one buffer, as hg_write_with_gz does */
		unsigned char *buf;
		size_t n;
		rc = S_gz_bytes(&buf, &n, t->held, t->nheld, t->gzpath);
		errno = 0;
		if (rc == 0 && hg_write_all(t->gzfd, buf, n) != 0)
			rc = S_fail(t, "write failed", t->gzpath);
		else if (rc != 0)
			snprintf(t->error, sizeof(t->error), "%s", hg_error_last());
		free(buf);
	}
	if (t->streaming)
		deflateEnd(&t->z);
	errno = 0;
	if (close(t->fd) != 0 && rc == 0)
		rc = S_fail(t, "write failed", t->path);
	if (t->gzfd >= 0 && close(t->gzfd) != 0 && rc == 0)
		rc = S_fail(t, "write failed", t->gzpath);
	if (rc == 0 && t->md) {
		static const char digits[] = "0123456789abcdef";
		unsigned char md[32];
		unsigned int n = 32, i;
		if (EVP_DigestFinal_ex(t->md, md, &n) != 1)
			rc = S_fail(t, "SHA-256 failed", t->path);
		for (i = 0; rc == 0 && i < 32; i++) {
			t->sum->sha256[2 * i] = digits[md[i] >> 4];
			t->sum->sha256[2 * i + 1] = digits[md[i] & 15];
		}
		t->sum->sha256[64] = 0;
		t->sum->bytes = t->bytes;
	}
	if (rc != 0)
		hg_error_set("%s", t->error);
	EVP_MD_CTX_free(t->md);
	free(t->held);
	free(t->path);
	free(t->gzpath);
	free(t);
	return rc;
}

FILE *hg_gztwin_open_sum(const char *path, hg_filesum *sum)
{
	cookie_io_functions_t io = { NULL, S_twin_write, NULL, S_twin_close };
	S_twin *t = calloc(1, sizeof(*t));
	FILE *f;

	if (!t) {
		hg_error_set("out of memory");
		return NULL;
	}
	if (sum) {
		memset(sum, 0, sizeof(*sum));
		t->sum = sum;
		t->md = EVP_MD_CTX_new();
		if (!t->md || EVP_DigestInit_ex(t->md, EVP_sha256(), NULL) != 1) {
			EVP_MD_CTX_free(t->md);
			free(t);
			hg_error_set("%s: SHA-256 failed", path);
			return NULL;
		}
	}
	t->path = hg_xstrdup(path);
	t->gzpath = hg_xprintf("%s.gz", path);
	t->held = S_alloc(S_BIG);
	t->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	t->gzfd = t->fd < 0 ? -1 : open(t->gzpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	f = t->gzfd < 0 ? NULL : fopencookie(t, "w", io);
	/* one thread writes a stream at a time: no lock per call */
	if (f)
		__fsetlocking(f, FSETLOCKING_BYCALLER);
	if (!f) {
		hg_error_set("%s: cannot write: %s", t->fd < 0 ? path : t->gzpath, strerror(errno));
		if (t->fd >= 0)
			close(t->fd);
		if (t->gzfd >= 0)
			close(t->gzfd);
		EVP_MD_CTX_free(t->md);
		free(t->held);
		free(t->path);
		free(t->gzpath);
		free(t);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

FILE *hg_gztwin_open(const char *path)
{
	return hg_gztwin_open_sum(path, NULL);
}

int hg_gztwin_close(FILE *f)
{
	/* a failed write or close has set the error, naming the file */
	int bad = ferror(f);
	return fclose(f) != 0 || bad ? -1 : 0;
}
