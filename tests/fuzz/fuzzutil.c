/* fuzzutil.c — the private temporary folder of a fuzz harness process and the files in it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzzutil.h"

static char S_dir[4096];
static pid_t S_owner;

static void S_die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz: %s: %s: %s\n", what, path, strerror(errno));
	exit(2);
}

static int S_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void S_cleanup(void)
{
	/* a forked child (none here, but be safe) must not remove its parent's folder */
	if (S_dir[0] && getpid() == S_owner)
		nftw(S_dir, S_rm, 16, FTW_DEPTH | FTW_PHYS);
}

const char *hbf_tmpdir(void)
{
	const char *base;
	if (S_dir[0])
		return S_dir;
	base = getenv("TMPDIR");
	if (!base || !*base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(S_dir, sizeof(S_dir), "%s/hbfuzz-XXXXXX", base);
	if (!mkdtemp(S_dir))
		S_die("cannot make a temporary folder", S_dir);
	S_owner = getpid();
	atexit(S_cleanup);
	return S_dir;
}

char *hbf_path(const char *rel)
{
	char *p;
	if (asprintf(&p, "%s/%s", hbf_tmpdir(), rel) < 0)
		S_die("out of memory", rel);
	return p;
}

void hbf_write(const char *rel, const void *data, size_t len)
{
	char *path = hbf_path(rel), *s;
	const char *p = data;
	int fd;

	/* the folders on the way only when missing: this runs once per input */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT) {
		for (s = path + strlen(hbf_tmpdir()) + 1; (s = strchr(s, '/')) != NULL; s++) {
			*s = 0;
			if (mkdir(path, 0755) != 0 && errno != EEXIST)
				S_die("cannot make a folder", path);
			*s = '/';
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		S_die("cannot write", path);
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			S_die("cannot write", path);
		p += n;
		len -= (size_t)n;
	}
	close(fd);
	free(path);
}

void hbf_write_str(const char *rel, const char *text)
{
	hbf_write(rel, text, strlen(text));
}

char *hbf_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		S_die("out of memory", "input");
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}
