/* site_commit.c — a rebuild put in place: the files the build wrote into its folder of changes
 * replace the site's one by one; a file the same as the site's (a hard link to the same evidence,
 * or the same bytes) is dropped, so what did not change is neither rewritten nor moved; the
 * evidence folders of a page whose evidence changed are swapped whole; and what the rebuild no
 * longer makes is removed. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sitewide.h"

typedef struct {
	const char *stage, *site;
	const char *const *ids;  /* the algorithm ids, sorted: a page's own files are always new */
	size_t nids;
	hg_commit_counts *n;
} S_commit;

/* Do two regular files hold the same bytes? */
static int S_same_bytes(const char *a, const char *b, off_t size)
{
	char x[65536], y[65536];
	int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC), same = fa >= 0 &&
		fb >= 0;
	off_t done = 0;
	while (same && done < size) {
		ssize_t n = read(fa, x, sizeof(x)), m;
		if (n <= 0)
			break;
		m = read(fb, y, (size_t)n);
		same = m == n && memcmp(x, y, (size_t)n) == 0;
		done += n;
	}
	same = same && done == size;
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* rel is "<system>/<name>" and name starts with an algorithm id and a dot: an algorithm page's
 * own file, rendered again because what it shows changed. */
static int S_page_file(const S_commit *c, const char *rel)
{
	const char *slash = strchr(rel, '/'), *dot;
	char *stem;
	int hit;
	if (!slash || strchr(slash + 1, '/') || strncmp(rel, "data/", 5) == 0)
		return 0;
	dot = strchr(slash + 1, '.');
	if (!dot)
		return 0;
	stem = strndup(slash + 1, (size_t)(dot - slash - 1));
	hit = stem && c->nids && bsearch(&stem, c->ids, c->nids, sizeof(char *), hg_cmp_str) != NULL;
	free(stem);
	return hit;
}

/* data/<system>/{records,kat}/<id> or data/<system>/imported/records/<id>: a page's evidence. */
static int S_evidence_folder(const char *rel)
{
	int slashes = 0;
	const char *p;
	if (strncmp(rel, "data/", 5) != 0)
		return 0;
	for (p = rel; *p; p++)
		slashes += *p == '/';
	if (slashes == 3) {
		const char *kind = strchr(rel + 5, '/') + 1;
		return strncmp(kind, "records/", 8) == 0 || strncmp(kind, "kat/", 4) == 0;
	}
	return slashes == 4 && strstr(rel, "/" HG_ORIGINALS "/") != NULL;
}

static int S_swap_folder(const char *from, const char *to)
{
	char *old = hg_xprintf("%s.old-%ld", to, (long)getpid());
	int had = rename(to, old) == 0, rc = 0;
	if (rename(from, to) != 0) {
		rc = hg_error_set("%s: cannot put the rebuilt folder in place: %s", to, strerror(errno));
		if (had)
			rename(old, to);
	} else if (had) {
		hg_rm_rf(old);
	}
	free(old);
	return rc;
}

static int S_file(S_commit *c, const char *rel, const char *from, const char *to)
{
	struct stat a, b;
	if (lstat(from, &a) != 0)
		return hg_error_set("%s: %s", from, strerror(errno));
	if (!S_page_file(c, rel) && lstat(to, &b) == 0 && S_ISREG(b.st_mode) &&
		(a.st_ino == b.st_ino ||
		(a.st_size == b.st_size && S_same_bytes(from, to, a.st_size))))
		return 0; /* the site's is the same: left as it is */
	if (rename(from, to) != 0)
		return hg_error_set("%s: cannot put the rebuilt file in place: %s", to, strerror(errno));
	c->n->replaced++;
	return 0;
}

static int S_walk(S_commit *c, const char *rel)
{
	char *dir = rel[0] ? hg_xprintf("%s/%s", c->stage, rel) : hg_xstrdup(c->stage);
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = hg_error_set("%s: %s", dir, strerror(errno));
		free(dir);
		return rc;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *r, *from, *to;
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		r = rel[0] ? hg_xprintf("%s/%s", rel, de->d_name) : hg_xstrdup(de->d_name);
		from = hg_xprintf("%s/%s", c->stage, r);
		to = hg_xprintf("%s/%s", c->site, r);
		if (lstat(from, &st) != 0)
			rc = hg_error_set("%s: %s", from, strerror(errno));
		else if (S_ISDIR(st.st_mode) && S_evidence_folder(r))
			rc = S_swap_folder(from, to) == 0 ? (c->n->swapped++, 0) : -1;
		else if (S_ISDIR(st.st_mode))
			rc = (mkdir(to, 0755) == 0 || errno == EEXIST) ? S_walk(c, r) :
				hg_error_set("%s: cannot create folder: %s", to, strerror(errno));
		else
			rc = S_file(c, r, from, to);
		free(r);
		free(from);
		free(to);
	}
	closedir(d);
	free(dir);
	return rc;
}

int hg_site_commit(const char *stage, const char *site, const char *const *ids, size_t nids,
	char *const *stale, size_t nstale, hg_commit_counts *n)
{
	S_commit c = { stage, site, ids, nids, n };
	size_t i;
	int rc;
	memset(n, 0, sizeof(*n));
	rc = S_walk(&c, "");
	for (i = 0; i < nstale && rc == 0; i++) {
		char *staged = hg_xprintf("%s/%s", stage, stale[i]);
		char *path = hg_xprintf("%s/%s", site, stale[i]);
		if (access(staged, F_OK) != 0) { /* not made again */
			if (unlink(path) == 0)
				n->removed++;
			else if (errno != ENOENT)
				rc = hg_error_set("%s: cannot remove: %s", path, strerror(errno));
		}
		free(staged);
		free(path);
	}
	hg_rm_rf(stage);
	return rc;
}
