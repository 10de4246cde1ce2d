/* fsutil.c — files, hex, SHA-256 and child commands: the plumbing every module shares. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "hbutil.h"

void hb_buf_free(hb_buf *buf)
{
	if (!buf)
		return;
	free(buf->data);
	buf->data = NULL;
	buf->len = 0;
}

static int S_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int S_read_gz(hb_buf *out, const char *path)
{
	gzFile gz = gzopen(path, "rb");
	size_t cap = 1 << 16, len = 0;
	unsigned char *data = NULL;
	int n, err;

	if (!gz)
		return hb_error_set("%s: %s", path, strerror(errno ? errno : ENOMEM));
	gzbuffer(gz, 1 << 17);
	for (;;) {
		if (!data || cap - len < (1 << 16)) {
			unsigned char *grown;
			cap *= 2;
			grown = realloc(data, cap + 1);
			if (!grown) {
				free(data);
				gzclose(gz);
				return hb_error_set("%s: out of memory", path);
			}
			data = grown;
		}
		n = gzread(gz, data + len, (unsigned)(cap - len));
		if (n < 0) {
			const char *msg = gzerror(gz, &err);
			hb_error_set("%s: not a valid gzip file (%s)", path, msg);
			free(data);
			gzclose(gz);
			return HB_ERROR;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	gzclose(gz);
	data[len] = 0;
	out->data = data;
	out->len = len;
	return 0;
}

int hb_stream_read(hb_buf *out, FILE *f, const char *name)
{
	size_t cap = 1 << 16, len = 0, n;
	unsigned char *data = NULL;

	out->data = NULL;
	out->len = 0;
	for (;;) {
		if (!data || cap - len < 4096) {
			unsigned char *grown = realloc(data, cap *= 2);
			if (!grown) {
				free(data);
				return hb_error_set("%s: out of memory", name);
			}
			data = grown;
		}
		n = fread(data + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(data);
		return hb_error_set("%s: read error: %s", name, strerror(errno));
	}
	data[len] = 0;
	out->data = data;
	out->len = len;
	return 0;
}

int hb_file_read_raw(hb_buf *out, const char *path)
{
	FILE *f;
	struct stat st;
	int rc;

	if (strcmp(path, "-") == 0)
		return hb_stream_read(out, stdin, "standard input");
	f = fopen(path, "rb");
	if (!f)
		return hb_error_set("%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return hb_error_set("%s: is a folder", path);
	}
	rc = hb_stream_read(out, f, path);
	fclose(f);
	return rc;
}

int hb_file_read(hb_buf *out, const char *path)
{
	FILE *f;
	struct stat st;
	unsigned char *data;
	size_t len;

	out->data = NULL;
	out->len = 0;
	if (S_ends_with(path, ".gz"))
		return S_read_gz(out, path);
	f = fopen(path, "rb");
	if (!f)
		return hb_error_set("%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return hb_error_set("%s: not a regular file", path);
	}
	len = (size_t)st.st_size;
	data = malloc(len + 1);
	if (!data) {
		fclose(f);
		return hb_error_set("%s: out of memory", path);
	}
	if (len && fread(data, 1, len, f) != len) {
		free(data);
		fclose(f);
		return hb_error_set("%s: read error", path);
	}
	fclose(f);
	data[len] = 0;
	out->data = data;
	out->len = len;
	return 0;
}

int hb_file_write_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = hb_sprintf("%s.tmp.%ld", path, (long)getpid());
	const unsigned char *p = data;
	int fd, rc = HB_ERROR;

	if (!tmp)
		return hb_error_set("%s: out of memory", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		hb_error_set("%s: cannot write: %s", path, strerror(errno));
		goto out;
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			hb_error_set("%s: write failed: %s", path, strerror(errno));
			close(fd);
			unlink(tmp);
			goto out;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		hb_error_set("%s: write failed: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		hb_error_set("%s: cannot rename into place: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	return rc;
}

int hb_mkdir_p(const char *path)
{
	char *copy = hb_strdup(path);
	char *p;

	if (!copy)
		return hb_error_set("out of memory");
	for (p = copy + 1; ; p++) {
		if (*p == '/' || *p == 0) {
			char c = *p;
			*p = 0;
			if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
				hb_error_set("%s: cannot create folder: %s", copy, strerror(errno));
				free(copy);
				return HB_ERROR;
			}
			*p = c;
			if (c == 0)
				break;
		}
	}
	free(copy);
	if (!hb_is_dir(path))
		return hb_error_set("%s: not a folder", path);
	return 0;
}

int hb_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int hb_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

void hb_hex(char *out, const unsigned char *in, size_t len, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	size_t i;
	for (i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = 0;
}

static int S_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long hb_unhex(unsigned char *out, size_t cap, const char *hex, size_t hexlen)
{
	size_t i;
	if (hexlen % 2 || hexlen / 2 > cap)
		return -1;
	for (i = 0; i < hexlen / 2; i++) {
		int hi = S_nibble(hex[2 * i]), lo = S_nibble(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return (long)(hexlen / 2);
}

void hb_sha256(unsigned char out[32], const void *data, size_t len)
{
	unsigned int n = 32;
	EVP_Digest(data, len, out, &n, EVP_sha256(), NULL);
}

int hb_sha256_file(char out_hex[65], const char *path)
{
	unsigned char buf[1 << 16], md[32];
	unsigned int n = 32;
	EVP_MD_CTX *ctx;
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return hb_error_set("%s: %s", path, strerror(errno));
	ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, got);
	EVP_DigestFinal_ex(ctx, md, &n);
	EVP_MD_CTX_free(ctx);
	if (ferror(f)) {
		fclose(f);
		return hb_error_set("%s: read error", path);
	}
	fclose(f);
	hb_hex(out_hex, md, 32, 0);
	return 0;
}

char *hb_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

char *hb_sprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

char *hb_path_join(const char *a, const char *b)
{
	if (b[0] == '/')
		return hb_strdup(b);
	return hb_sprintf("%s%s%s", a, (a[0] && a[strlen(a) - 1] != '/') ? "/" : "", b);
}

int hb_run_capture(char **out_output, char *const argv[], unsigned timeout_s)
{
	int pipefd[2], status = 0;
	pid_t pid;
	size_t len = 0, cap = 4096;
	char *text = malloc(cap);
	struct timespec start, now;

	*out_output = NULL;
	if (!text)
		return hb_error_set("out of memory");
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		free(text);
		return hb_error_set("pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		free(text);
		close(pipefd[0]);
		close(pipefd[1]);
		return hb_error_set("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		setpgid(0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd pfd = { pipefd[0], POLLIN, 0 };
		long left_ms;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left_ms = (long)timeout_s * 1000 - ((now.tv_sec - start.tv_sec) * 1000 +
			(now.tv_nsec - start.tv_nsec) / 1000000);
		if (left_ms <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(pipefd[0]);
			free(text);
			hb_error_set("%s: no result after %u s, stopped", argv[0], timeout_s);
			return HB_ETIMEOUT;
		}
		if (poll(&pfd, 1, (int)(left_ms > 1000 ? 1000 : left_ms)) <= 0)
			continue;
		if (cap - len < 1024) {
			char *grown = realloc(text, cap * 2);
			if (!grown)
				break;
			text = grown;
			cap *= 2;
		}
		n = read(pipefd[0], text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(pipefd[0]);
	text[len] = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*out_output = text;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
