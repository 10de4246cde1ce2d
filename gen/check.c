/* check.c — hashgen --check: render the site afresh into a temporary folder, compare it with --out
 * byte for byte, and verify the evidence copies of --out against their own SHA256SUMS and the
 * parts of its downloads against their index. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "hashgen.h"

typedef struct {
	char *rel;          /* relative to the tree's root, "/"-separated */
	mode_t mode;        /* from lstat: symbolic links are not followed */
	off_t size;
} S_entry;

typedef struct {
	S_entry *v;
	size_t n, cap;
} S_tree;

typedef struct {
	char *rel;          /* the path the line is sorted by */
	char *text;         /* what follows the path in the line */
	size_t seq;         /* order of discovery, for lines about the same path */
} S_problem;

typedef struct {
	S_problem *v;
	size_t n, cap;
} S_report;

typedef struct {
	char *path;         /* relative to the system folder */
	char sha256[65];
} S_sum;

static void *S_grow(void *v, size_t *cap, size_t need, size_t size)
{
	void *g;
	if (need <= *cap)
		return v;
	*cap = *cap ? 2 * *cap : 64;
	if (*cap < need)
		*cap = need;
	g = realloc(v, *cap * size);
	if (!g) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	return g;
}

/* Paths in tree order: '/' sorts before every other byte, so a folder's contents follow it. */
static int S_path_cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	if (*a == *b)
		return 0;
	if (!*a || !*b)
		return *a ? 1 : -1;
	if (*a == '/' || *b == '/')
		return *a == '/' ? -1 : 1;
	return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
}

static int S_entry_cmp(const void *a, const void *b)
{
	return S_path_cmp(((const S_entry *)a)->rel, ((const S_entry *)b)->rel);
}

static int S_problem_cmp(const void *a, const void *b)
{
	const S_problem *x = a, *y = b;
	int c = S_path_cmp(x->rel, y->rel);
	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int S_sum_cmp(const void *a, const void *b)
{
	return S_path_cmp(((const S_sum *)a)->path, ((const S_sum *)b)->path);
}

/* A name from the site as text for one line: control bytes are shown as \xNN, so a file name
 * cannot forge or split lines of the report. */
static char *S_printable(const char *s)
{
	size_t n = 0;
	const char *p;
	char *r, *q;
	for (p = s; *p; p++)
		n += (unsigned char)*p < 0x20 || *p == 0x7f ? 4 : 1;
	r = q = malloc(n + 1);
	if (!r) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	for (p = s; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			q += sprintf(q, "\\x%02x", (unsigned char)*p);
		else
			*q++ = *p;
	}
	*q = 0;
	return r;
}

/* dir joined with rel, without doubling a '/' the user typed. */
static char *S_join(const char *dir, const char *rel)
{
	size_t n = strlen(dir);
	return hg_xprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", rel);
}

static void S_add(S_report *r, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void S_add(S_report *r, const char *rel, const char *fmt, ...)
{
	va_list ap;
	char *text;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0) {
		fprintf(stderr, "hashgen: out of memory\n");
		exit(1);
	}
	va_end(ap);
	r->v = S_grow(r->v, &r->cap, r->n + 1, sizeof(S_problem));
	r->v[r->n].rel = hg_xstrdup(rel);
	r->v[r->n].text = text;
	r->v[r->n].seq = r->n;
	r->n++;
}

/* ---- listing a tree ---- */

static void S_tree_free(S_tree *t)
{
	size_t i;
	for (i = 0; i < t->n; i++)
		free(t->v[i].rel);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Everything under root (rel NULL: root itself), symbolic links as links. A folder that cannot be
 * read is a problem of the report when r is given (--out), else an error (the fresh render). */
static int S_list(S_tree *t, const char *root, const char *rel, S_report *r)
{
	char *dir = rel ? hg_xprintf("%s/%s", root, rel) : hg_xstrdup(root);
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		if (r && rel) {
			S_add(r, rel, " cannot be read: %s", strerror(errno));
			free(dir);
			return 0;
		}
		rc = hg_error_set("%s: %s", dir, strerror(errno));
		free(dir);
		return rc;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;
		char *sub;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		sub = rel ? hg_xprintf("%s/%s", rel, de->d_name) : hg_xstrdup(de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = hg_error_set("%s/%s: %s", dir, de->d_name, strerror(errno));
			free(sub);
			break;
		}
		t->v = S_grow(t->v, &t->cap, t->n + 1, sizeof(S_entry));
		t->v[t->n].rel = sub;
		t->v[t->n].mode = st.st_mode;
		t->v[t->n].size = st.st_size;
		t->n++;
		if (S_ISDIR(st.st_mode))
			rc = S_list(t, root, sub, r);
	}
	closedir(d);
	free(dir);
	return rc;
}

static const S_entry *S_find(const S_tree *t, const char *rel)
{
	S_entry key;
	key.rel = (char *)rel;
	return t->n ? bsearch(&key, t->v, t->n, sizeof(S_entry), S_entry_cmp) : NULL;
}

/* Does the entry after i lie inside the folder t->v[i]? */
static int S_has_children(const S_tree *t, size_t i)
{
	size_t n = strlen(t->v[i].rel);
	return i + 1 < t->n && strncmp(t->v[i + 1].rel, t->v[i].rel, n) == 0 &&
		t->v[i + 1].rel[n] == '/';
}

/* ---- comparing ---- */

/* Up to n bytes of fd (fewer only at its end), or -1. */
static ssize_t S_read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/* 1 when both files hold the same bytes, 0 when not, -1 with errno when one cannot be read. */
static int S_same_bytes(const char *a, const char *b)
{
	char x[16384], y[16384];
	int fa = open(a, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), fb = -1, same = -1, e;
	struct stat sa, sb;

	if (fa < 0 || (fb = open(b, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
		fstat(fa, &sa) != 0 || fstat(fb, &sb) != 0)
		goto out;
	same = sa.st_size == sb.st_size && S_ISREG(sa.st_mode) && S_ISREG(sb.st_mode);
	while (same == 1) {
		ssize_t na = S_read_full(fa, x, sizeof(x)), nb = S_read_full(fb, y, sizeof(y));
		if (na < 0 || nb < 0)
			same = -1;
		else if (na != nb || memcmp(x, y, (size_t)na) != 0)
			same = 0;
		else if (na == 0)
			break;
	}
out:
	e = errno;
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	errno = e;
	return same;
}

/* Walk both sorted listings together: a line per file that differs, is missing or is extra
 * (a folder only when it is empty, its contents say the rest). */
static int S_compare(size_t *identical, S_report *r, const S_tree *got, const char *got_root,
	const S_tree *want, const char *want_root)
{
	size_t i = 0, j = 0;

	while (i < got->n || j < want->n) {
		int c = i == got->n ? 1 : j == want->n ? -1 : S_path_cmp(got->v[i].rel, want->v[j].rel);
		if (c < 0) {
			const S_entry *g = &got->v[i];
			if (!S_ISDIR(g->mode) || !S_has_children(got, i))
				S_add(r, g->rel, " is not part of the site");
			i++;
		} else if (c > 0) {
			const S_entry *w = &want->v[j];
			if (!S_ISDIR(w->mode) || !S_has_children(want, j))
				S_add(r, w->rel, " is missing");
			j++;
		} else {
			const S_entry *g = &got->v[i], *w = &want->v[j];
			if (S_ISDIR(g->mode) && S_ISDIR(w->mode)) {
				/* the contents follow */
			} else if (!S_ISREG(g->mode) || !S_ISREG(w->mode) || g->size != w->size) {
				S_add(r, g->rel, " differs");
			} else {
				char *a = hg_xprintf("%s/%s", got_root, g->rel);
				char *b = hg_xprintf("%s/%s", want_root, w->rel);
				int same = S_same_bytes(a, b);
				if (same < 0) {
					/* the fresh render must be readable; the site being checked may not be */
					int e = errno;
					if (access(b, R_OK) != 0) {
						hg_error_set("%s: %s", b, strerror(errno));
						free(a);
						free(b);
						return -1;
					}
					S_add(r, g->rel, " cannot be read: %s", strerror(e));
				} else if (!same) {
					S_add(r, g->rel, " differs");
				} else {
					(*identical)++;
				}
				free(a);
				free(b);
			}
			i++;
			j++;
		}
	}
	return 0;
}

/* ---- SHA256SUMS of each system folder under --out/data ---- */


/* The lines of SHA256SUMS (text is modified); a malformed line is a problem of the report. */
static void S_parse_sums(S_sum **out, size_t *n, char *text, size_t len, const char *sums_rel,
	S_report *r)
{
	size_t cap = 0, lineno = 0;
	char *line = text, *end = text + len;

	*out = NULL;
	*n = 0;
	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line)), *name;
		if (nl)
			*nl = 0;
		lineno++;
		name = line + 64;
		if (nl == line) {
			/* an empty line lists nothing */
		} else if (strlen(line) != (size_t)((nl ? nl : end) - line) || strlen(line) < 67 ||
			strspn(line, "0123456789abcdef") != 64 || name[0] != ' ' ||
			(name[1] != ' ' && name[1] != '*')) {
			S_add(r, sums_rel, ":%zu: expected \"<sha256>  <file>\"", lineno);
		} else if (!hg_sums_path_ok(name + 2)) {
			char *shown = S_printable(name + 2);
			S_add(r, sums_rel, ":%zu: %s: a path that leaves the system folder: refused",
				lineno, shown);
			free(shown);
		} else {
			*out = S_grow(*out, &cap, *n + 1, sizeof(S_sum));
			(*out)[*n].path = hg_xstrdup(name + 2);
			memcpy((*out)[*n].sha256, line, 64);
			(*out)[*n].sha256[64] = 0;
			(*n)++;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(S_sum), S_sum_cmp);
}

/* Every file SHA256SUMS lists must be there with that SHA-256, and every file of the folder
 * (SHA256SUMS aside) must be listed. */
static void S_verify_system(S_report *r, const S_tree *got, const char *out_dir, size_t at)
{
	const char *sys = got->v[at].rel; /* "data/<system>" */
	char *sums_rel = hg_xprintf("%s/SHA256SUMS", sys), *prefix = hg_xprintf("%s/", sys);
	char *json_rel = hg_xprintf("%s/system.json", sys), *path = NULL, *text = NULL;
	const S_entry *se = S_find(got, sums_rel);
	size_t plen = strlen(prefix), len, nsums = 0, i;
	S_sum *sums = NULL;

	if (!se && !S_find(got, json_rel))
		goto out; /* not a system's evidence (the catalog, say) */
	if (!se || !S_ISREG(se->mode)) {
		S_add(r, sums_rel, "%s: its evidence cannot be verified",
			se ? " is not a regular file" : " is missing");
		goto out;
	}
	path = hg_xprintf("%s/%s", out_dir, sums_rel);
	if (hg_read_file(&text, &len, path) != 0) {
		S_add(r, sums_rel, " cannot be read: %s", strerror(errno));
		goto out;
	}
	S_parse_sums(&sums, &nsums, text, len, sums_rel, r);
	for (i = 0; i < nsums; i++) {
		char *rel = hg_xprintf("%s%s", prefix, sums[i].path);
		const S_entry *e = S_find(got, rel);
		if (!e) {
			S_add(r, rel, " is listed in SHA256SUMS but missing");
		} else if (!S_ISREG(e->mode)) {
			S_add(r, rel, " does not match SHA256SUMS: not a regular file");
		} else {
			char *full = hg_xprintf("%s/%s", out_dir, rel), *data, hex[65];
			size_t dlen;
			if (hg_read_file(&data, &dlen, full) != 0) {
				S_add(r, rel, " cannot be read: %s", strerror(errno));
			} else {
				hg_sha256_hex(hex, data, dlen);
				if (strcmp(hex, sums[i].sha256) != 0)
					S_add(r, rel, " does not match SHA256SUMS");
				free(data);
			}
			free(full);
		}
		free(rel);
	}
	for (i = at + 1; i < got->n && strncmp(got->v[i].rel, prefix, plen) == 0; i++) {
		const S_entry *e = &got->v[i];
		S_sum key;
		if (S_ISDIR(e->mode) || strcmp(e->rel, sums_rel) == 0)
			continue;
		key.path = e->rel + plen;
		if (!nsums || !bsearch(&key, sums, nsums, sizeof(S_sum), S_sum_cmp))
			S_add(r, e->rel, " is not listed in SHA256SUMS");
	}
out:
	for (i = 0; i < nsums; i++)
		free(sums[i].path);
	free(sums);
	free(text);
	free(path);
	free(json_rel);
	free(prefix);
	free(sums_rel);
}

/* ---- the downloads' index: each part it lists, with its size and SHA-256 ---- */

#define S_INDEX "results-index.json"

/* The file part[key] names must be there, regular, of part[key_bytes] bytes and SHA-256
 * part[key_sha256]. */
static void S_verify_part(S_report *r, const S_tree *got, const char *out_dir, json_t *part,
	size_t i, const char *key)
{
	char *bytes_key = hg_xprintf("%s_bytes", key), *sha_key = hg_xprintf("%s_sha256", key);
	const char *rel = json_string_value(json_object_get(part, key));
	const char *sha = json_string_value(json_object_get(part, sha_key));
	json_t *bytes = json_object_get(part, bytes_key);
	const S_entry *e;

	if (!rel || !hg_sums_path_ok(rel) || !sha || strlen(sha) != 64 ||
		strspn(sha, "0123456789abcdef") != 64 || !json_is_integer(bytes)) {
		S_add(r, S_INDEX, ": parts[%zu]: expected %s (a path inside the site), %s and %s", i,
			key, bytes_key, sha_key);
	} else if (!(e = S_find(got, rel))) {
		S_add(r, rel, " is listed in " S_INDEX " but missing");
	} else if (!S_ISREG(e->mode)) {
		S_add(r, rel, " does not match " S_INDEX ": not a regular file");
	} else if ((long long)e->size != (long long)json_integer_value(bytes)) {
		S_add(r, rel, " does not match " S_INDEX ": %lld bytes, not %lld", (long long)e->size,
			(long long)json_integer_value(bytes));
	} else {
		char *full = S_join(out_dir, rel), *data, hex[65];
		size_t len;
		if (hg_read_file(&data, &len, full) != 0) {
			S_add(r, rel, " cannot be read: %s", strerror(errno));
		} else {
			hg_sha256_hex(hex, data, len);
			if (strcmp(hex, sha) != 0)
				S_add(r, rel, " does not match " S_INDEX ": its SHA-256 differs");
			free(data);
		}
		free(full);
	}
	free(bytes_key);
	free(sha_key);
}

/* Every part results-index.json lists must be the file it describes; a missing or differing
 * index is the comparison's to report. */
static void S_verify_index(S_report *r, const S_tree *got, const char *out_dir)
{
	const S_entry *e = S_find(got, S_INDEX);
	char *path;
	json_t *root, *parts, *part;
	json_error_t err;
	size_t i;

	if (!e || !S_ISREG(e->mode))
		return;
	path = S_join(out_dir, S_INDEX);
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
	free(path);
	parts = json_object_get(root, "parts");
	if (!root) {
		char *shown = S_printable(err.text);
		S_add(r, S_INDEX, ":%d: %s", err.line, shown);
		free(shown);
	} else if (!json_is_array(parts) || !json_is_string(json_object_get(root, "schema")) ||
		strcmp(json_string_value(json_object_get(root, "schema")),
			"hashbench.results-index/1") != 0) {
		S_add(r, S_INDEX, ": not a hashbench.results-index/1 index with its parts");
	} else {
		json_array_foreach(parts, i, part) {
			S_verify_part(r, got, out_dir, part, i, "csv");
			S_verify_part(r, got, out_dir, part, i, "json");
		}
	}
	json_decref(root);
}

/* ---- the check ---- */

/* Where the fresh render goes: $TMPDIR or /tmp, never inside the site being checked. */
static int S_tmp_base(char **out, const char *out_dir)
{
	const char *base = getenv("TMPDIR");
	char a[PATH_MAX], b[PATH_MAX];
	size_t n;

	*out = NULL;
	if (!base || !*base)
		base = "/tmp";
	if (!realpath(base, a))
		return hg_error_set("%s: no temporary folder: %s", base, strerror(errno));
	if (!realpath(out_dir, b))
		return hg_error_set("%s: %s", out_dir, strerror(errno));
	n = strlen(b);
	if (strncmp(a, b, n) == 0 && (a[n] == '/' || a[n] == 0 || n == 1))
		return hg_error_set("%s: the temporary folder %s is inside the site: set TMPDIR elsewhere",
			out_dir, base);
	*out = hg_xstrdup(base);
	return 0;
}

int hg_site_check(size_t *out, const hg_site_opts *o, FILE *report)
{
	S_tree got = { 0 }, want = { 0 };
	S_report r;
	hg_site_opts ro;
	hg_site_stats st;
	char *base = NULL, *tmp = NULL, *fresh = NULL;
	size_t identical = 0, i;
	struct stat sb;
	int rc = -1;

	*out = 0;
	memset(&r, 0, sizeof(r));
	if (stat(o->out_dir, &sb) != 0 && errno != ENOENT && errno != ENOTDIR)
		return hg_error_set("%s: %s", o->out_dir, strerror(errno));
	if (stat(o->out_dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return hg_error_set("%s: no site to check", o->out_dir);
	if (S_tmp_base(&base, o->out_dir) != 0)
		return -1;
	tmp = hg_xprintf("%s/hashgen-check-XXXXXX", base);
	if (!mkdtemp(tmp)) {
		hg_error_set("%s: cannot create a temporary folder: %s", base, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	fresh = hg_xprintf("%s/site", tmp);
	ro = *o;
	ro.out_dir = fresh;
	ro.render_only = 1;
	ro.warnings = NULL; /* the comparison and the SHA256SUMS lines below say what matters */
	if (hg_site_build(&st, &ro) != 0)
		goto out;
	if (S_list(&got, o->out_dir, NULL, &r) != 0 || S_list(&want, fresh, NULL, NULL) != 0)
		goto out;
	if (got.n > 1)
		qsort(got.v, got.n, sizeof(S_entry), S_entry_cmp);
	if (want.n > 1)
		qsort(want.v, want.n, sizeof(S_entry), S_entry_cmp);
	if (S_compare(&identical, &r, &got, o->out_dir, &want, fresh) != 0)
		goto out;
	for (i = 0; i < got.n; i++) {
		const char *rel = got.v[i].rel;
		if (strncmp(rel, "data/", 5) == 0 && rel[5] && !strchr(rel + 5, '/') &&
			S_ISDIR(got.v[i].mode))
			S_verify_system(&r, &got, o->out_dir, i);
	}
	S_verify_index(&r, &got, o->out_dir);
	if (r.n > 1)
		qsort(r.v, r.n, sizeof(S_problem), S_problem_cmp);
	for (i = 0; i < r.n; i++) {
		char *path = S_join(o->out_dir, r.v[i].rel), *shown = S_printable(path);
		fprintf(report, "hashgen: %s%s\n", shown, r.v[i].text);
		free(shown);
		free(path);
	}
	if (r.n == 0) {
		char *a = S_join(o->out_dir, ""), *b = S_join(o->data_dir, "");
		char *sa = S_printable(a), *sb_ = S_printable(b);
		fprintf(report, "hashgen: %s matches %s: %zu %s identical\n", sa, sb_, identical,
			hg_plural(identical, "file", "files"));
		free(sa);
		free(sb_);
		free(a);
		free(b);
	}
	fflush(report);
	*out = r.n;
	rc = 0;
out:
	if (tmp) {
		/* the render is removed whatever happened; an earlier message is kept */
		char *msg = rc ? hg_xstrdup(hg_error_last()) : NULL;
		if (hg_rm_rf(tmp) != 0 && rc == 0)
			fprintf(stderr, "hashgen: warning: %s\n", hg_error_last());
		if (msg)
			hg_error_set("%s", msg);
		free(msg);
	}
	for (i = 0; i < r.n; i++) {
		free(r.v[i].rel);
		free(r.v[i].text);
	}
	free(r.v);
	S_tree_free(&got);
	S_tree_free(&want);
	free(fresh);
	free(tmp);
	free(base);
	return rc;
}
