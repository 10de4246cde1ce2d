/* genutil.c — errors, files, SHA-256, string vectors and clocks for the generator. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "genutil.h"

static _Thread_local char S_message[2048];

int hg_error_set(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(S_message, sizeof(S_message), fmt, ap);
	va_end(ap);
	return -1;
}

const char *hg_error_last(void)
{
	return S_message[0] ? S_message : "unknown error";
}

static void S_oom(void)
{
	fprintf(stderr, "hashgen: out of memory\n");
	exit(1);
}

char *hg_xstrdup(const char *s)
{
	char *d;
	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		S_oom();
	return d;
}

char *hg_xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		S_oom();
	va_end(ap);
	return s;
}

char *hg_xpath(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = c ? strlen(c) : 0;
	char *p = malloc(la + lb + lc + 3), *o = p;
	if (!p)
		S_oom();
	memcpy(o, a, la);
	o += la;
	*o++ = '/';
	memcpy(o, b, lb);
	o += lb;
	if (c) {
		*o++ = '/';
		memcpy(o, c, lc);
		o += lc;
	}
	*o = 0;
	return p;
}

int hg_read_file(char **out, size_t *len, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *data;
	size_t got = 0;

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return hg_error_set("%s: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return hg_error_set("%s: not a regular file", path);
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data)
		S_oom();
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got != (size_t)st.st_size) {
		free(data);
		return hg_error_set("%s: read error", path);
	}
	data[got] = 0;
	*out = data;
	*len = got;
	return 0;
}

int hg_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int hg_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return hg_error_set("%s: cannot write: %s", path, strerror(errno));
	if (hg_write_all(fd, data, len) != 0) {
		int e = errno;
		close(fd);
		return hg_error_set("%s: write failed: %s", path, strerror(e));
	}
	if (close(fd) != 0)
		return hg_error_set("%s: write failed: %s", path, strerror(errno));
	return 0;
}

int hg_mkdirs(const char *path)
{
	char *copy = hg_xstrdup(path), *p;
	for (p = copy + 1; ; p++) {
		if (*p == '/' || *p == 0) {
			char c = *p;
			*p = 0;
			if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
				hg_error_set("%s: cannot create folder: %s", copy, strerror(errno));
				free(copy);
				return -1;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	free(copy);
	return 0;
}

void hg_sha256_hex(char out[65], const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[32];
	unsigned int n = 32, i;
	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	for (i = 0; i < 32; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[64] = 0;
}

/* ---- digests of values (what a page shows), for the rebuild cache ---- */

/* The values gathered in a buffer and given to SHA-256 a block at a time: a page's digest is
 * fed thousands of small values, and each EVP_DigestUpdate call has a cost of its own. The
 * digest is that of the values one after another, as before. */
struct hg_md {
	EVP_MD_CTX *ctx;
	size_t n;
	unsigned char buf[4096];
};

hg_md *hg_md_new(void)
{
	hg_md *m = malloc(sizeof(*m));
	if (!m || !(m->ctx = EVP_MD_CTX_new()) || EVP_DigestInit_ex(m->ctx, EVP_sha256(), NULL) != 1)
		S_oom();
	m->n = 0;
	return m;
}

void hg_md_bytes(hg_md *m, const void *data, size_t len)
{
	if (m->n + len > sizeof(m->buf)) {
		EVP_DigestUpdate(m->ctx, m->buf, m->n);
		m->n = 0;
		if (len > sizeof(m->buf)) {
			EVP_DigestUpdate(m->ctx, data, len);
			return;
		}
	}
	memcpy(m->buf + m->n, data, len);
	m->n += len;
}

void hg_md_str(hg_md *m, const char *s)
{
	/* NULL and "" differ; a string ends with its NUL so that "ab","c" is not "a","bc" */
	if (s)
		hg_md_bytes(m, s, strlen(s) + 1);
	else
		hg_md_bytes(m, "\1", 1);
}

void hg_md_num(hg_md *m, double v)
{
	hg_md_bytes(m, &v, sizeof(v));
}

void hg_md_int(hg_md *m, long long v)
{
	hg_md_bytes(m, &v, sizeof(v));
}

void hg_md_hex(hg_md *m, char out[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[32];
	unsigned int n = 32, i;
	EVP_DigestUpdate(m->ctx, m->buf, m->n);
	EVP_DigestFinal_ex(m->ctx, md, &n);
	EVP_MD_CTX_free(m->ctx);
	free(m);
	for (i = 0; i < 32; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[64] = 0;
}

int hg_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : hg_error_set("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		int rc = 0;
		if (!d)
			return hg_error_set("%s: %s", path, strerror(errno));
		while (rc == 0 && (de = readdir(d)) != NULL) {
			char *sub;
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			sub = hg_xprintf("%s/%s", path, de->d_name);
			rc = hg_rm_rf(sub);
			free(sub);
		}
		closedir(d);
		if (rc == 0 && rmdir(path) != 0)
			rc = hg_error_set("%s: %s", path, strerror(errno));
		return rc;
	}
	if (unlink(path) != 0)
		return hg_error_set("%s: %s", path, strerror(errno));
	return 0;
}

void hg_strv_push(char ***v, size_t *n, char *s)
{
	char **g = realloc(*v, (*n + 2) * sizeof(char *));
	if (!g)
		S_oom();
	*v = g;
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

void hg_strv_free(char **v)
{
	size_t i;
	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

int hg_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *hg_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

double hg_wall_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

double hg_cpu_seconds(void)
{
	struct rusage u;
	if (getrusage(RUSAGE_SELF, &u) != 0)
		return 0;
	return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
		(double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}
