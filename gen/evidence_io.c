/* evidence_io.c — the reading primitives of untrusted evidence: JSON fields with the file and the
 * JSON path in every message, hrefs a page may show, folder listings that refuse links leading
 * out of data/, and the read buffer of each loading thread. */
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

/* ---- JSON access with paths in the messages ---- */

int hg_ev_bad(const char *file, const char *path, const char *what)
{
	return hg_error_set("%s: %s: %s", file, path, what);
}

/* A string field: required (NULL is an error), or optional (absent or null give NULL). */
int hg_ev_str(char **out, const char *file, json_t *obj, const char *prefix,
	const char *key, int required)
{
	json_t *v = json_object_get(obj, key);
	char path[256];
	*out = NULL;
	snprintf(path, sizeof(path), "%s%s", prefix, key);
	if (!v || json_is_null(v)) {
		if (required)
			return hg_ev_bad(file, path, v ? "expected a string, got null" : "missing");
		return 0;
	}
	if (!json_is_string(v))
		return hg_ev_bad(file, path, "expected a string");
	*out = hg_xstrdup(json_string_value(v));
	return 0;
}

/* An integer field; optional ones may be absent or null (-1). */
int hg_ev_int(long long *out, const char *file, json_t *obj, const char *prefix,
	const char *key, int required)
{
	json_t *v = json_object_get(obj, key);
	char path[256];
	*out = -1;
	snprintf(path, sizeof(path), "%s%s", prefix, key);
	if (!v || json_is_null(v)) {
		if (required)
			return hg_ev_bad(file, path, v ? "expected an integer, got null" : "missing");
		return 0;
	}
	if (!json_is_integer(v))
		return hg_ev_bad(file, path, "expected an integer");
	if (json_integer_value(v) < 0)
		return hg_ev_bad(file, path, "expected an integer of 0 or more");
	*out = (long long)json_integer_value(v);
	return 0;
}

int hg_ev_schema(const char *file, json_t *root, const char *want)
{
	json_t *v = json_object_get(root, "schema");
	if (!json_is_object(root))
		return hg_error_set("%s: expected a JSON object", file);
	if (!v)
		return hg_ev_bad(file, "schema", "missing");
	if (!json_is_string(v))
		return hg_ev_bad(file, "schema", "expected a string");
	if (strcmp(json_string_value(v), want) != 0)
		return hg_error_set("%s: schema: unknown version \"%s\" (this hashgen reads %s)", file,
			json_string_value(v), want);
	return 0;
}

json_t *hg_ev_parse(const char *file, const char *text, size_t len)
{
	json_error_t err;
	json_t *j = json_loadb(text, len, 0, &err);
	if (!j)
		hg_error_set("%s:%d:%d: malformed JSON: %s", file, err.line, err.column, err.text);
	return j;
}

/* ---- hrefs and paths ---- */

int hg_href_ok(const char *href)
{
	const char *p;
	if (!href || !*href)
		return 0;
	for (p = href; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == '\\' || *p == '"' || *p == '<' || *p == '>')
			return 0;
	if (strncmp(href, "https://", 8) == 0 || strncmp(href, "http://", 7) == 0)
		return href[strncmp(href, "https://", 8) == 0 ? 8 : 7] != 0;
	/* relative: no scheme, not absolute, never above the site root */
	if (href[0] == '/' || strchr(href, ':'))
		return 0;
	for (p = href; *p; ) {
		size_t n = strcspn(p, "/?#");
		if (n == 2 && strncmp(p, "..", 2) == 0)
			return 0;
		if (p[n] != '/')
			break;
		p += n + 1;
	}
	return 1;
}


/* Is a symbolic link safe: does it resolve inside root? */
static int S_link_inside(const char *path, const char *root_real)
{
	char real[PATH_MAX];
	size_t n = strlen(root_real);
	if (!realpath(path, real))
		return 0;
	return strncmp(real, root_real, n) == 0 && (real[n] == '/' || real[n] == 0);
}

/* Entries of dir (names), sorted; kind 'd' folders, 'f' files; symbolic links must stay in
 * root_real (else an error). A missing folder is an empty list. The type comes from readdir
 * where the file system gives it: no stat per entry. */
int hg_ev_list(char ***out, size_t *n, const char *dir, char kind, const char *root_real)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	*out = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : hg_error_set("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		int is_dir = de->d_type == DT_DIR, is_reg = de->d_type == DT_REG;
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) {
			char *full = hg_xprintf("%s/%s", dir, de->d_name);
			struct stat st;
			if (de->d_type == DT_LNK && !S_link_inside(full, root_real)) {
				hg_error_set("%s: a symbolic link that leads out of the data folder: refused",
					full);
				free(full);
				closedir(d);
				hg_strv_free(*out);
				*out = NULL;
				return -1;
			}
			if (stat(full, &st) == 0) {
				is_dir = S_ISDIR(st.st_mode);
				is_reg = S_ISREG(st.st_mode);
			}
			free(full);
		}
		if ((kind == 'd' && is_dir) || (kind == 'f' && is_reg)) {
			/* names become link targets: only characters that need no escaping */
			if (strspn(de->d_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789._-") != strlen(de->d_name)) {
				hg_error_set("%s/%s: a name with characters other than letters, digits, '.', "
					"'_' and '-': refused", dir, de->d_name);
				closedir(d);
				hg_strv_free(*out);
				*out = NULL;
				return -1;
			}
			hg_strv_push(out, n, hg_xstrdup(de->d_name));
		}
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(char *), hg_cmp_str);
	return 0;
}

/* The calling thread's read buffer (hg_ev_read_at), freed by hg_evidence_release. */
static _Thread_local char *S_rbuf;
static _Thread_local size_t S_rcap;

void hg_evidence_release(void)
{
	free(S_rbuf);
	S_rbuf = NULL;
	S_rcap = 0;
}

/* Read a file of a folder into a buffer of the calling thread (valid until its next call). */
int hg_ev_read_at(char **out, size_t *len, int dfd, const char *name, const char *shown,
	struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	if (fd < 0)
		return hg_error_set("%s: %s", shown, strerror(errno));
	if (st && fstat(fd, st) != 0) {
		close(fd);
		return hg_error_set("%s: %s", shown, strerror(errno));
	}
	for (;;) {
		ssize_t r;
		if (S_rcap - got < 4096) {
			char *g = realloc(S_rbuf, S_rcap ? 2 * S_rcap : 65536);
			if (!g) {
				close(fd);
				return hg_error_set("%s: out of memory", shown);
			}
			S_rbuf = g;
			S_rcap = S_rcap ? 2 * S_rcap : 65536;
		}
		r = read(fd, S_rbuf + got, S_rcap - got - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return hg_error_set("%s: %s", shown, strerror(errno));
		}
		got += (size_t)r;
		/* a regular file gives all it has: a short read is its end (saves a read per file) */
		if (r == 0 || (size_t)r < S_rcap - (got - (size_t)r) - 1)
			break;
	}
	close(fd);
	S_rbuf[got] = 0;
	*out = S_rbuf;
	*len = got;
	return 0;
}

/* ---- an algorithm's evidence files and their stat (evidence.h) ---- */

int hg_ev_scan(hg_scanned **out, size_t *n, const hg_system *s, const char *id)
{
	const char *kinds[3];
	size_t k, nkinds = hg_evidence_kinds(s, kinds), cap = 0;
	*out = NULL;
	*n = 0;
	for (k = 0; k < nkinds; k++) {
		char *dir = hg_xprintf("%s/%s/%s", s->dir, kinds[k], id);
		DIR *d = opendir(dir);
		struct dirent *de;
		size_t first = *n, a, b;
		free(dir);
		if (!d)
			continue;
		while ((de = readdir(d)) != NULL) {
			struct stat st;
			if (de->d_name[0] == '.')
				continue;
			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
				!S_ISREG(st.st_mode)) {
				closedir(d);
				return 1;
			}
			if (*n == cap) {
				cap = cap ? 2 * cap : 64;
				*out = realloc(*out, cap * sizeof(hg_scanned));
				if (!*out)
					abort();
			}
			(*out)[*n].rel = hg_xpath(kinds[k], id, de->d_name);
			(*out)[*n].st = st;
			(*n)++;
		}
		closedir(d);
		for (a = first + 1; a < *n; a++)
			for (b = a; b > first && strcmp((*out)[b - 1].rel, (*out)[b].rel) > 0; b--) {
				hg_scanned t = (*out)[b];
				(*out)[b] = (*out)[b - 1];
				(*out)[b - 1] = t;
			}
	}
	return 0;
}

void hg_ev_scan_free(hg_scanned *sc, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(sc[i].rel);
	free(sc);
}
