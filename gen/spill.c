/* spill.c — the rows a page leaves for the outputs spanning the field, set aside in an unnamed
 * temporary file while the pages render and read back one system at a time, so that a build
 * does not hold every page's rows at once. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figures.h"

struct hg_spill {
	int fd;
	char *dir;
	atomic_llong end;    /* bytes reserved so far */
};

/* A block's place in the file: its bytes rounded up, so that every block keeps the alignment
 * of a row. */
#define S_ALIGN 16
static size_t S_rounded(size_t n)
{
	return (n + S_ALIGN - 1) / S_ALIGN * S_ALIGN;
}

hg_spill *hg_spill_open(const char *dir)
{
	hg_spill *s = calloc(1, sizeof(*s));
	if (!s) {
		hg_error_set("out of memory");
		return NULL;
	}
	s->dir = hg_xstrdup(dir);
	s->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (s->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		/* a file system without unnamed files: a named one, unlinked at once */
		char *path = hg_xprintf("%s/.hashgen-spill-XXXXXX", dir);
		s->fd = mkostemp(path, O_CLOEXEC);
		if (s->fd >= 0)
			unlink(path);
		free(path);
	}
	if (s->fd < 0) {
		hg_error_set("%s: cannot create a temporary file for the pages' rows: %s", dir,
			strerror(errno));
		free(s->dir);
		free(s);
		return NULL;
	}
	atomic_init(&s->end, 0);
	return s;
}

void hg_spill_close(hg_spill *s)
{
	if (!s)
		return;
	close(s->fd);
	free(s->dir);
	free(s);
}

/* n bytes at offset at written from p, or read into p: all of them, or -1 with the error set. */
static int S_whole(const hg_spill *s, int writing, char *p, size_t n, off_t at)
{
	while (n > 0) {
		ssize_t r = writing ? pwrite(s->fd, p, n, at) : pread(s->fd, p, n, at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return hg_error_set("%s: cannot %s the pages' rows %s: %s", s->dir,
				writing ? "set" : "read", writing ? "aside" : "back", r < 0 ?
				strerror(errno) : writing ? "nothing written" :
				"the file is shorter than what was written");
		p += r;
		at += r;
		n -= (size_t)r;
	}
	return 0;
}

int hg_spill_put(hg_spill *s, hg_spill_block *b, const hg_fig *block, size_t n, size_t size)
{
	long long at = atomic_fetch_add(&s->end, (long long)S_rounded(size));
	b->at = at;
	b->size = size;
	b->n = n;
	b->was = block;
	return S_whole(s, 1, (char *)block, size, (off_t)at);
}

size_t hg_spill_room(const hg_spill_block *b)
{
	return S_rounded(b->size);
}

int hg_spill_get(hg_spill *s, const hg_spill_block *b, hg_fig *into)
{
	if (S_whole(s, 0, (char *)into, b->size, (off_t)b->at) != 0)
		return -1;
	hg_figs_relocate(into, b->n, b->was, b->size);
	return 0;
}
