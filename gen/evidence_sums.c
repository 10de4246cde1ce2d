/* evidence_sums.c — a system's SHA256SUMS, read once as untrusted input: the system's own lines
 * kept, each algorithm folder's remembered by where its lines lie and read back for its page. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"

/* Consecutive lines of one folder: the bytes [off, off + len) of the file, blank lines allowed. */
typedef struct {
	off_t off;
	size_t len;
} S_run;

/* Where the lines of one algorithm's folder lie: tens of bytes, however many lines it has. */
typedef struct {
	char *prefix;          /* "records/<id>/" */
	S_run run;             /* its first lines; a sorted SHA256SUMS has no others */
	S_run *more;           /* the further runs of a SHA256SUMS that is not sorted */
	size_t nmore, nlines;
	uint64_t hash;         /* of its lines in file order: read back, they must hash the same */
} S_folder;

struct hg_sumindex {
	int fd;                /* open until freed: the folders' lines are read back through it */
	char *path;
	off_t size;            /* at load: a file that changed since is refused */
	struct timespec mtime;
	hg_sum *own;           /* the system's own lines (outside the folders), sorted by path */
	size_t nown;
	S_folder *folders;     /* sorted by prefix */
	size_t nfolders;
};

/* The folders of hg_evidence_kinds, each followed by /<id>/: all three whether the system was
 * imported or not (its system.json's measured_by is read after SHA256SUMS). */
static const char *const S_kinds[] = { HG_ORIGINALS "/", "kat/", "records/" };

#define S_FNV_BASIS 0xcbf29ce484222325ULL

/* FNV-1a over eight bytes at a time (its high bits folded down after each, for the tables that
 * take the low ones), then byte by byte: a rebuild hashes every line of SHA256SUMS it reads. */
static uint64_t S_fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 32;
	}
	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void *S_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	return p;
}

int hg_sums_path_ok(const char *p)
{
	const char *s;
	if (!*p || p[0] == '/')
		return 0;
	for (s = p; *s; ) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 2 && strncmp(s, "..", 2) == 0) || (n == 1 && s[0] == '.'))
			return 0;
		if (!s[n])
			break;
		s += n + 1;
	}
	return 1;
}

/* The length of "<kind>/<id>/" when p lies in an algorithm's folder (or is its prefix), else 0. */
static size_t S_folder_len(const char *p)
{
	size_t k;
	for (k = 0; k < sizeof(S_kinds) / sizeof(S_kinds[0]); k++) {
		size_t klen = strlen(S_kinds[k]);
		if (strncmp(p, S_kinds[k], klen) == 0) {
			const char *slash = strchr(p + klen, '/');
			return slash && slash > p + klen ? (size_t)(slash - p) + 1 : 0;
		}
	}
	return 0;
}

/* ---- the lists of lines ---- */

size_t hg_sums_lower(const hg_sum *v, size_t n, const char *key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(v[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const char *hg_sums_find(const hg_sum *v, size_t n, const char *rel)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(v[mid].path, rel);
		if (c == 0)
			return v[mid].sha256;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void hg_sums_sort(hg_sum *v, size_t n)
{
	hg_sum *tmp;
	size_t i, width;

	for (i = 1; i < n && strcmp(v[i - 1].path, v[i].path) <= 0; i++)
		;
	if (i >= n)
		return;
	/* a merge sort: lines of the same path keep their order in the file, as they always did */
	tmp = S_xrealloc(NULL, n * sizeof(*tmp));
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t a = i, mid = i + width < n ? i + width : n, b = mid;
			size_t end = i + 2 * width < n ? i + 2 * width : n, k = i;
			while (a < mid && b < end)
				tmp[k++] = strcmp(v[b].path, v[a].path) < 0 ? v[b++] : v[a++];
			while (a < mid)
				tmp[k++] = v[a++];
			while (b < end)
				tmp[k++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(tmp);
}

void hg_sums_free(hg_sum *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

static void S_push(hg_sum **v, size_t *n, size_t *cap, char *path, const char *sha256)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*v = S_xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[*n].path = path;
	memcpy((*v)[*n].sha256, sha256, 64);
	(*v)[*n].sha256[64] = 0;
	(*n)++;
}

/* ---- reading SHA256SUMS once ---- */

typedef struct {
	struct hg_sumindex *x;
	const char *path;
	int lineno;
	size_t capown, capfolders;
	size_t *table;         /* folders by prefix, open addressing: index + 1, 0 empty */
	size_t tcap;
	size_t last;           /* the folder of the previous line + 1; 0: an own line */
} S_loader;

static void S_rehash(S_loader *L)
{
	size_t i;
	L->tcap = L->tcap ? 2 * L->tcap : 256;
	L->table = S_xrealloc(L->table, L->tcap * sizeof(size_t));
	memset(L->table, 0, L->tcap * sizeof(size_t));
	for (i = 0; i < L->x->nfolders; i++) {
		const char *p = L->x->folders[i].prefix;
		size_t t = (size_t)S_fnv(S_FNV_BASIS, p, strlen(p)) & (L->tcap - 1);
		while (L->table[t])
			t = (t + 1) & (L->tcap - 1);
		L->table[t] = i + 1;
	}
}

/* The folder whose prefix is name's first plen bytes, made when it is new. */
static S_folder *S_folder_get(S_loader *L, const char *name, size_t plen)
{
	struct hg_sumindex *x = L->x;
	S_folder *f;
	size_t t;

	if (L->last) {
		f = &x->folders[L->last - 1];
		if (strncmp(f->prefix, name, plen) == 0 && f->prefix[plen] == 0)
			return f;
	}
	if (2 * (x->nfolders + 1) > L->tcap)
		S_rehash(L);
	for (t = (size_t)S_fnv(S_FNV_BASIS, name, plen) & (L->tcap - 1); L->table[t];
		t = (t + 1) & (L->tcap - 1)) {
		f = &x->folders[L->table[t] - 1];
		if (strncmp(f->prefix, name, plen) == 0 && f->prefix[plen] == 0)
			return f;
	}
	if (x->nfolders == L->capfolders) {
		L->capfolders = L->capfolders ? 2 * L->capfolders : 64;
		x->folders = S_xrealloc(x->folders, L->capfolders * sizeof(S_folder));
	}
	f = &x->folders[x->nfolders];
	memset(f, 0, sizeof(*f));
	f->prefix = S_xrealloc(NULL, plen + 1);
	memcpy(f->prefix, name, plen);
	f->prefix[plen] = 0;
	f->hash = S_FNV_BASIS;
	L->table[t] = ++x->nfolders;
	return f;
}

/* One non-blank line of len bytes at offset off, with room for a NUL after it. */
static int S_line(S_loader *L, char *line, size_t len, off_t off)
{
	struct hg_sumindex *x = L->x;
	char *name = line + 64;
	size_t plen;
	S_folder *f;

	L->lineno++;
	line[len] = 0;
	if (strspn(line, "0123456789abcdef") != 64 || name[0] != ' ' ||
		(name[1] != ' ' && name[1] != '*'))
		return hg_error_set("%s:%d: expected \"<sha256>  <file>\"", L->path, L->lineno);
	name += 2;
	if (!hg_sums_path_ok(name))
		return hg_error_set("%s:%d: %s: a path that leaves the system folder: refused", L->path,
			L->lineno, name);
	plen = S_folder_len(name);
	if (!plen) {
		S_push(&x->own, &x->nown, &L->capown, hg_xstrdup(name), line);
		L->last = 0;
		return 0;
	}
	f = S_folder_get(L, name, plen);
	f->hash = S_fnv(S_fnv(f->hash, line, len), "\n", 1);
	if (f->nlines && L->last == (size_t)(f - x->folders) + 1) {
		/* the folder's previous line came just before (blank lines aside) */
		S_run *r = f->nmore ? &f->more[f->nmore - 1] : &f->run;
		r->len = (size_t)(off - r->off) + len;
	} else if (!f->nlines) {
		f->run.off = off;
		f->run.len = len;
	} else {
		if ((f->nmore & (f->nmore - 1)) == 0)
			f->more = S_xrealloc(f->more, (f->nmore ? 2 * f->nmore : 1) * sizeof(S_run));
		f->more[f->nmore].off = off;
		f->more[f->nmore].len = len;
		f->nmore++;
	}
	f->nlines++;
	L->last = (size_t)(f - x->folders) + 1;
	return 0;
}

/* The whole file in pieces, cut into lines as strtok cuts a C string: blank lines skipped, the
 * text ending at a NUL byte. 0, -1 with the error of a bad line, 1 when the file cannot be read
 * (as hg_read_file: no SHA256SUMS, even after a bad line). */
static int S_read(S_loader *L)
{
	struct hg_sumindex *x = L->x;
	size_t cap = (size_t)1 << 16, have = 0;
	char *buf = S_xrealloc(NULL, cap + 1);
	off_t pos = 0, base = 0;   /* base: the offset of buf[0] in the file */
	int rc = 0, stop = 0;

	for (;;) {
		size_t want = cap - have, p = 0;
		ssize_t got = 0;
		if ((off_t)want > x->size - pos)
			want = (size_t)(x->size - pos);
		if (want && (got = pread(x->fd, buf + have, want, pos)) < 0 && errno == EINTR)
			continue;
		if (want && got <= 0) {
			rc = 1;
			break;
		}
		have += (size_t)got;
		pos += got;
		while (!stop && rc == 0 && p < have) {
			char *nl = memchr(buf + p, '\n', have - p), *nul;
			size_t end = nl ? (size_t)(nl - buf) : have;
			if (!nl && pos < x->size)
				break;
			if ((nul = memchr(buf + p, 0, end - p)) != NULL) {
				end = (size_t)(nul - buf);
				stop = 1;
			}
			if (end > p)
				rc = S_line(L, buf + p, end - p, base + (off_t)p);
			p = end + 1;
		}
		if (pos >= x->size)
			break;
		if (stop || rc != 0)
			p = have; /* read on all the same: a file that cannot be read is no SHA256SUMS */
		/* the unfinished line moves to the front; one longer than the buffer grows it */
		memmove(buf, buf + p, have - p);
		base += (off_t)p;
		have -= p;
		if (have == cap) {
			cap *= 2;
			buf = S_xrealloc(buf, cap + 1);
		}
	}
	free(buf);
	return rc;
}

static int S_cmp_folder(const void *a, const void *b)
{
	return strcmp(((const S_folder *)a)->prefix, ((const S_folder *)b)->prefix);
}

int hg_sums_load(hg_system *s, int fd, const char *path)
{
	struct hg_sumindex *x;
	struct stat st;
	S_loader L;
	int rc;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	x = S_xrealloc(NULL, sizeof(*x));
	memset(x, 0, sizeof(*x));
	x->fd = fd;
	x->path = hg_xstrdup(path);
	x->size = st.st_size;
	x->mtime = st.st_mtim;
	memset(&L, 0, sizeof(L));
	L.x = x;
	L.path = path;
	rc = S_read(&L);
	free(L.table);
	if (rc != 0) {
		hg_sumindex_free(x);
		return rc > 0 ? 0 : -1;
	}
	if (x->nown) {
		x->own = S_xrealloc(x->own, x->nown * sizeof(hg_sum));
		hg_sums_sort(x->own, x->nown);
	}
	if (x->nfolders) {
		x->folders = S_xrealloc(x->folders, x->nfolders * sizeof(S_folder));
		qsort(x->folders, x->nfolders, sizeof(S_folder), S_cmp_folder);
	}
	hg_sumindex_free(s->sums);
	s->sums = x;
	return 0;
}

void hg_sumindex_free(struct hg_sumindex *x)
{
	size_t i;
	if (!x)
		return;
	if (x->fd >= 0)
		close(x->fd);
	free(x->path);
	hg_sums_free(x->own, x->nown);
	for (i = 0; i < x->nfolders; i++) {
		free(x->folders[i].prefix);
		free(x->folders[i].more);
	}
	free(x->folders);
	free(x);
}

/* ---- reading a folder's lines back ---- */

static int S_changed(const struct hg_sumindex *x)
{
	return hg_error_set("%s: changed since it was read: run hashgen again", x->path);
}

static int S_pread_all(const struct hg_sumindex *x, char *buf, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t got = pread(x->fd, buf, len, off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return hg_error_set("%s: %s", x->path, strerror(errno));
		if (got == 0)
			return S_changed(x);
		buf += got;
		len -= (size_t)got;
		off += got;
	}
	return 0;
}

/* Append the lines of f that start with prefix to *v, in file order; fails when the file is not
 * the one read at load (size, time or the folder's lines). */
static int S_folder_read(hg_sum **v, size_t *n, size_t *cap, const struct hg_sumindex *x,
	const S_folder *f, const char *prefix)
{
	struct stat st;
	size_t total = f->run.len + f->nmore + 1, i, got = 0, lines = 0, plen = strlen(prefix);
	size_t flen = strlen(f->prefix);
	uint64_t hash = S_FNV_BASIS;
	char *buf, *p, *end, *nl;
	int rc = 0;

	if (fstat(x->fd, &st) != 0 || st.st_size != x->size || st.st_mtim.tv_sec != x->mtime.tv_sec ||
		st.st_mtim.tv_nsec != x->mtime.tv_nsec)
		return S_changed(x);
	for (i = 0; i < f->nmore; i++)
		total += f->more[i].len;
	buf = S_xrealloc(NULL, total);
	for (i = 0; i <= f->nmore && rc == 0; i++) {
		const S_run *r = i ? &f->more[i - 1] : &f->run;
		rc = S_pread_all(x, buf + got, r->len, r->off);
		got += r->len;
		buf[got++] = '\n';
	}
	end = buf + got;
	/* first know them again (each piece ends in '\n'), then keep them */
	for (p = buf; rc == 0 && p < end; p = nl + 1) {
		size_t len;
		nl = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)(nl - p);
		if (!len)
			continue;
		if (len < 67 || memchr(p, 0, len) || strncmp(p + 66, f->prefix, flen) != 0)
			rc = S_changed(x);
		hash = S_fnv(S_fnv(hash, p, len), "\n", 1);
		lines++;
	}
	if (rc == 0 && (lines != f->nlines || hash != f->hash))
		rc = S_changed(x);
	for (p = buf; rc == 0 && p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		*nl = 0;
		if (nl - p >= 67 && strncmp(p + 66, prefix, plen) == 0)
			S_push(v, n, cap, hg_xstrdup(p + 66), p);
	}
	free(buf);
	return rc;
}

static const S_folder *S_folder_find(const struct hg_sumindex *x, const char *prefix, size_t plen)
{
	size_t lo = 0, hi = x->nfolders;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *p = x->folders[mid].prefix;
		int c = strncmp(p, prefix, plen);
		if (c == 0 && p[plen])
			c = 1;
		if (c == 0)
			return &x->folders[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int hg_sums_under(hg_sum **out, size_t *n, const hg_system *s, const char *prefix)
{
	const struct hg_sumindex *x = s->sums;
	size_t plen = strlen(prefix), flen = S_folder_len(prefix), cap = 0, lo, hi, i;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!x)
		return 0;
	for (i = hg_sums_lower(x->own, x->nown, prefix);
		i < x->nown && strncmp(x->own[i].path, prefix, plen) == 0; i++)
		S_push(out, n, &cap, hg_xstrdup(x->own[i].path), x->own[i].sha256);
	/* the folder prefix lies in, or the folders that lie under prefix */
	if (flen && flen < plen) {
		const S_folder *f = S_folder_find(x, prefix, flen);
		if (f)
			rc = S_folder_read(out, n, &cap, x, f, prefix);
	}
	for (lo = 0, hi = x->nfolders; lo < hi; ) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(x->folders[mid].prefix, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; rc == 0 && i < x->nfolders &&
		strncmp(x->folders[i].prefix, prefix, plen) == 0; i++)
		rc = S_folder_read(out, n, &cap, x, &x->folders[i], prefix);
	if (rc != 0) {
		hg_sums_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	hg_sums_sort(*out, *n);
	return 0;
}

const hg_sum *hg_sums_system(const hg_system *s, size_t *n)
{
	*n = s->sums ? s->sums->nown : 0;
	return s->sums ? s->sums->own : NULL;
}

int hg_system_sum(char out[65], const hg_system *s, const char *rel)
{
	const char *sum;
	hg_sum *v;
	size_t n;

	out[0] = 0;
	if (!s->sums)
		return 0;
	if (!S_folder_len(rel)) {
		sum = hg_sums_find(s->sums->own, s->sums->nown, rel);
		if (sum)
			memcpy(out, sum, 65);
		return 0;
	}
	if (hg_sums_under(&v, &n, s, rel) != 0)
		return -1;
	sum = hg_sums_find(v, n, rel);
	if (sum)
		memcpy(out, sum, 65);
	hg_sums_free(v, n);
	return 0;
}

void hg_evfile_check(hg_evfile *f, const hg_sum *v, size_t n)
{
	const char *listed = hg_sums_find(v, n, f->file);
	if (listed) {
		memcpy(f->listed, listed, 65);
		f->state = strcmp(listed, f->sha256) == 0 ? HG_SUM_OK : HG_SUM_MISMATCH;
	} else {
		f->listed[0] = 0;
		f->state = HG_SUM_UNLISTED;
	}
}
