/* evidence_sums.c — a system's SHA256SUMS: parsed as untrusted input, looked up by binary search,
 * and every evidence file held against its line. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "evidence.h"

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

/* ---- listing folders ---- */

int hg_sums_parse(hg_system *s, char *text, const char *path)
{
	char *line, *save = NULL;
	size_t cap = 0;
	int lineno = 0, rc = 0;

	for (line = strtok_r(text, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
		char *name = line + 64;
		lineno++;
		if (strspn(line, "0123456789abcdef") != 64 || name[0] != ' ' ||
			(name[1] != ' ' && name[1] != '*')) {
			rc = hg_error_set("%s:%d: expected \"<sha256>  <file>\"", path, lineno);
			break;
		}
		name += 2;
		if (!hg_sums_path_ok(name)) {
			rc = hg_error_set("%s:%d: %s: a path that leaves the system folder: refused", path,
				lineno, name);
			break;
		}
		if (s->nsums == cap) {
			hg_sum *g;
			cap = cap ? 2 * cap : 256;
			g = realloc(s->sums, cap * sizeof(*g));
			if (!g) {
				fprintf(stderr, "hashgen: out of memory\n");
				exit(1);
			}
			s->sums = g;
		}
		line[64] = 0;
		s->sums[s->nsums].path = hg_xstrdup(name);
		memcpy(s->sums[s->nsums].sha256, line, 65);
		s->nsums++;
	}
	if (rc == 0 && s->nsums > 1) {
		size_t i;
		/* SHA256SUMS is written sorted; a sorted check keeps lookups a binary search */
		for (i = 1; i < s->nsums; i++)
			if (strcmp(s->sums[i - 1].path, s->sums[i].path) >= 0)
				break;
		if (i < s->nsums) {
			size_t a, b;
			for (a = 1; a < s->nsums; a++)
				for (b = a; b > 0 && strcmp(s->sums[b - 1].path, s->sums[b].path) > 0; b--) {
					hg_sum t = s->sums[b];
					s->sums[b] = s->sums[b - 1];
					s->sums[b - 1] = t;
				}
		}
	}
	return rc;
}

const char *hg_system_sum(const hg_system *s, const char *rel)
{
	size_t lo = 0, hi = s->nsums;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->sums[mid].path, rel);
		if (c == 0)
			return s->sums[mid].sha256;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}


/* First index of sums whose path is >= key. */
size_t hg_system_sum_lower(const hg_system *s, const char *key)
{
	size_t lo = 0, hi = s->nsums;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(s->sums[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void hg_evfile_check(hg_evfile *f, const hg_system *s)
{
	const char *listed = hg_system_sum(s, f->file);
	if (listed) {
		memcpy(f->listed, listed, 65);
		f->state = strcmp(listed, f->sha256) == 0 ? HG_SUM_OK : HG_SUM_MISMATCH;
	} else {
		f->listed[0] = 0;
		f->state = HG_SUM_UNLISTED;
	}
}
