/* merge.c — `hashbench merge`: join the evidence folders that shards of one campaign wrote. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "hashbench.h"

/* counter.hz is calibrated by every run; identical machines agree far better than this */
#define HZ_TOLERANCE 0.01

typedef struct {
	char *rel;        /* path inside the system folder, as SHA256SUMS lists it */
	char sha256[65];
	size_t input;     /* index of the input that holds it */
	int passed;       /* a KAT summary whose result is PASS */
} S_unit;

typedef struct {
	char *dir;        /* as given, without trailing '/' */
	char *parent;     /* dir/..: the data folder around it (also when dir is a symbolic link) */
	const char *name; /* the folder's name: the system */
	json_t *sys;      /* system.json */
	json_t *shard;    /* borrowed from sys; NULL for an unsharded run */
	long long index, count;
	S_unit *sums;     /* SHA256SUMS, sorted by rel */
	size_t nsums;
} S_input;

typedef struct {
	const hb_merge_opts *o;
	S_input *in;      /* sorted by shard index */
	size_t nin;
	S_unit *units;    /* every evidence file of every input but system.json, sorted, unique */
	size_t nunits;
	S_unit *catalog;  /* rel "<alg>.json" under some input's parent/algorithms */
	size_t ncatalog;
	char *outsys;     /* OUT/<system> */
	size_t missing;
} S_merge;

/* ---- small helpers ---- */

static int S_rel_cmp(const void *a, const void *b)
{
	const S_unit *x = a, *y = b;
	int c = strcmp(x->rel, y->rel);
	return c ? c : (x->input > y->input) - (x->input < y->input);
}

static int S_key_cmp(const void *key, const void *unit)
{
	return strcmp(key, ((const S_unit *)unit)->rel);
}

static const S_unit *S_find(const S_unit *v, size_t n, const char *rel)
{
	return n ? bsearch(rel, v, n, sizeof(*v), S_key_cmp) : NULL;
}

static int S_push(S_unit **v, size_t *n, const char *rel, const char *sha256, size_t input)
{
	S_unit *g = realloc(*v, (*n + 1) * sizeof(**v));
	if (!g)
		return hb_error_set("merge: out of memory");
	*v = g;
	g[*n] = (S_unit){ hb_strdup(rel), "", input, 0 };
	memcpy(g[*n].sha256, sha256, 65);
	if (!g[*n].rel)
		return hb_error_set("merge: out of memory");
	(*n)++;
	return 0;
}

static void S_units_free(S_unit *v, size_t n)
{
	while (n > 0)
		free(v[--n].rel);
	free(v);
}

/* A path the campaign could have listed: relative, no empty, "." or hidden part, no
 * temporary file of an atomic write (hb_write_sha256sums leaves those out). */
static int S_rel_ok(const char *p)
{
	size_t n = strlen(p);
	return n && p[0] != '/' && p[0] != '.' && p[n - 1] != '/' && !strstr(p, "//") &&
		!strstr(p, "/.") && !strstr(p, ".tmp.");
}

/* "2026-09-28T15:05:46Z": the form every campaign writes, which sorts as text. */
static int S_utc_ok(const json_t *v)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	const char *s = json_string_value(v);
	size_t i = 0;
	while (s && shape[i] && (shape[i] == 'd' ? isdigit((unsigned char)s[i]) : s[i] == shape[i]))
		i++;
	return s && !shape[i] && !s[i];
}

/* The value at a dotted path of objects ("campaign.profile"), or NULL. */
static json_t *S_at(json_t *j, const char *path)
{
	while (j && *path) {
		size_t n = strcspn(path, ".");
		j = json_object_getn(j, path, n);
		path += n + (path[n] == '.');
	}
	return j;
}

/* A value as the message shows it: compact JSON, above 60 bytes cut on a character boundary. */
static char *S_shown(const json_t *v)
{
	char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : hb_strdup("absent");
	size_t n = s ? strlen(s) : 0;
	if (n > 60) {
		n = 57; /* room for the 3 bytes of '…' */
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		strcpy(s + n, "…");
	}
	return s ? s : hb_strdup("?");
}

/* ---- one input: system.json and SHA256SUMS ---- */

/* "<alg>/<stem>" as a shard's libraries and plan name a library. */
static int S_library_ok(const json_t *v)
{
	const char *s = json_string_value(v), *slash = s ? strchr(s, '/') : NULL;
	return slash && slash != s && slash[1] && !strchr(slash + 1, '/') && s[0] != '.' &&
		slash[1] != '.';
}

static int S_check_shard(S_input *in)
{
	json_t *idx = S_at(in->shard, "index"), *cnt = S_at(in->shard, "count");
	json_t *libs = S_at(in->shard, "libraries"), *plan = S_at(in->shard, "plan"), *v, *set;
	const char *bad = NULL;
	size_t i;
	int rc = 0;

	if (!json_is_object(in->shard))
		bad = "shard: expected an object";
	else if (!json_is_integer(cnt) || json_integer_value(cnt) < 1)
		bad = "shard.count: expected a number of shards";
	else if (!json_is_integer(idx) || json_integer_value(idx) < 1 ||
		json_integer_value(idx) > json_integer_value(cnt))
		bad = "shard.index: expected 1 to shard.count";
	else if (!json_is_array(plan) || !json_is_array(libs))
		bad = "shard.plan and shard.libraries: expected arrays of libraries";
	if (bad)
		return hb_error_set("merge: %s/system.json: %s", in->dir, bad);
	in->count = json_integer_value(cnt);
	in->index = json_integer_value(idx);
	set = json_object(); /* the plan's libraries as keys */
	json_array_foreach(plan, i, v) {
		if (!S_library_ok(v))
			rc = hb_error_set("merge: %s/system.json: shard.plan[%zu]: expected "
				"\"<algorithm>/<stem>\"", in->dir, i);
		else if (json_object_get(set, json_string_value(v)))
			rc = hb_error_set("merge: %s/system.json: shard.plan[%zu]: \"%s\" is listed twice",
				in->dir, i, json_string_value(v));
		if (rc != 0)
			break;
		json_object_set(set, json_string_value(v), v);
	}
	json_array_foreach(libs, i, v)
		if (rc == 0 && (!json_is_string(v) || !json_object_get(set, json_string_value(v))))
			rc = hb_error_set("merge: %s/system.json: shard.libraries[%zu]: not a library of "
				"shard.plan", in->dir, i);
	json_decref(set);
	return rc;
}

static int S_load_system(S_input *in)
{
	char *path = hb_path_join(in->dir, "system.json");
	json_error_t jerr;
	json_t *c, *sizes, *v;
	const char *sys, *bad = NULL;
	size_t i;
	int rc = HB_ERROR;

	if (!(in->sys = json_load_file(path, 0, &jerr))) {
		hb_error_set("merge: %s:%d: %s", path, jerr.line, jerr.text);
		goto out;
	}
	sys = json_string_value(json_object_get(in->sys, "system"));
	c = json_object_get(in->sys, "campaign");
	sizes = json_object_get(c, "message_sizes");
	if (!sys)
		bad = "system: expected the system's name";
	else if (!json_is_object(c))
		bad = "campaign: expected an object";
	else if (!S_utc_ok(json_object_get(c, "start")))
		bad = "campaign.start: expected a UTC time such as 2026-09-28T15:05:46Z";
	else if (!S_utc_ok(json_object_get(c, "end")) && !json_is_null(json_object_get(c, "end")))
		bad = "campaign.end: expected a UTC time such as 2026-09-28T15:05:46Z or null";
	else if (!json_is_array(sizes) || json_array_size(sizes) == 0)
		bad = "campaign.message_sizes: expected an array of sizes in bytes";
	json_array_foreach(sizes, i, v)
		if (!bad && (!json_is_integer(v) || json_integer_value(v) < 1))
			bad = "campaign.message_sizes: expected an array of sizes in bytes";
	if (bad)
		hb_error_set("merge: %s: %s", path, bad);
	else if (strcmp(sys, in->name) != 0)
		hb_error_set("merge: %s: system: \"%s\" contradicts the folder name \"%s\"", path, sys,
			in->name);
	else if (!(in->shard = json_object_get(in->sys, "shard")) || S_check_shard(in) == 0)
		rc = 0;
out:
	free(path);
	return rc;
}

/* SHA256SUMS into in->sums: "<64 hex>  <path>" lines (a '*' for the second space is allowed). */
static int S_load_sums(S_input *in)
{
	char *path = hb_path_join(in->dir, "SHA256SUMS"), *line, *next;
	hb_buf buf;
	size_t lineno = 0;
	int rc = 0;

	if (hb_file_read_raw(&buf, path) != 0) {
		free(path);
		return hb_error_prefix("merge: ");
	}
	for (line = (char *)buf.data; rc == 0 && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		if (strspn(line, "0123456789abcdef") != 64 || line[64] != ' ' ||
			(line[65] != ' ' && line[65] != '*'))
			rc = hb_error_set("merge: %s:%zu: expected \"<sha256>  <file>\"", path, lineno);
		else if (!S_rel_ok(line + 66) || strcmp(line + 66, "SHA256SUMS") == 0)
			rc = hb_error_set("merge: %s:%zu: \"%s\": not an evidence file of the folder",
				path, lineno, line + 66);
		else {
			line[64] = 0;
			rc = S_push(&in->sums, &in->nsums, line + 66, line, 0);
		}
	}
	/* a line listed twice is checked twice: harmless */
	if (rc == 0 && in->nsums > 1)
		qsort(in->sums, in->nsums, sizeof(S_unit), S_rel_cmp);
	hb_buf_free(&buf);
	free(path);
	return rc;
}

/* nftw passes no argument to its callback: the input being walked, and the length of its real
 * path (the walk starts there, so that a folder given as a symbolic link is walked too). */
static _Thread_local const S_input *S_walking;
static _Thread_local size_t S_walking_root;

static int S_walk_one(const char *fpath, const struct stat *st, int type, struct FTW *f)
{
	const char *name = fpath + f->base, *rel = fpath + S_walking_root + 1;
	if (f->level == 0)
		return FTW_CONTINUE;
	if (name[0] == '.' || strstr(name, ".tmp."))
		return type == FTW_D ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	if (type == FTW_D || strcmp(rel, "SHA256SUMS") == 0)
		return FTW_CONTINUE;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		hb_error_set("merge: %s/%s: not a regular file or folder", S_walking->dir, rel);
	else if (!S_find(S_walking->sums, S_walking->nsums, rel))
		hb_error_set("merge: %s/%s is not listed in %s/SHA256SUMS", S_walking->dir, rel,
			S_walking->dir);
	else
		return FTW_CONTINUE;
	return FTW_STOP;
}

/* Every file SHA256SUMS lists is there with that SHA-256, and nothing else is there. */
static int S_verify(const S_input *in)
{
	char root[PATH_MAX];
	size_t i;
	int rc;
	for (i = 0; i < in->nsums; i++) {
		char *full = hb_path_join(in->dir, in->sums[i].rel), hex[65];
		struct stat st;
		rc = 0;
		if (lstat(full, &st) != 0)
			rc = hb_error_set("merge: %s is listed in %s/SHA256SUMS but %s", full, in->dir,
				errno == ENOENT ? "missing" : strerror(errno));
		else if (!S_ISREG(st.st_mode))
			rc = hb_error_set("merge: %s: not a regular file", full);
		else if (hb_sha256_file(hex, full) != 0)
			rc = hb_error_prefix("merge: ");
		else if (strcmp(hex, in->sums[i].sha256) != 0)
			rc = hb_error_set("merge: %s does not match %s/SHA256SUMS", full, in->dir);
		free(full);
		if (rc != 0)
			return rc;
	}
	if (!realpath(in->dir, root))
		return hb_error_set("merge: %s: %s", in->dir, strerror(errno));
	S_walking = in;
	S_walking_root = strlen(root);
	rc = nftw(root, S_walk_one, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	S_walking = NULL;
	return rc == FTW_STOP ? HB_ERROR : rc != 0 ? hb_error_set("merge: %s: cannot read the "
		"folder: %s", in->dir, strerror(errno)) : 0;
}

static int S_load_input(S_input *in, const char *dir)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.";
	const char *slash;
	size_t n = strlen(dir);
	memset(in, 0, sizeof(*in));
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (!(in->dir = hb_sprintf("%.*s", (int)n, dir)))
		return hb_error_set("merge: out of memory");
	slash = strrchr(in->dir, '/');
	in->name = slash ? slash + 1 : in->dir;
	in->parent = hb_path_join(in->dir, "..");
	/* the names a campaign accepts for --system */
	if (strlen(in->name) > 64 || !isalnum((unsigned char)in->name[0]) ||
		strspn(in->name, ok) != strlen(in->name))
		return hb_error_set("merge: %s: not a system's evidence folder (its name should be the "
			"system's, e.g. x86_1)", in->dir);
	if (!hb_is_dir(in->dir))
		return hb_error_set("merge: %s: not a folder", in->dir);
	return S_load_sums(in) != 0 || S_verify(in) != 0 ? HB_ERROR : S_load_system(in);
}

/* ---- can these inputs be joined? ---- */

/* The first place where a and b differ, in the order of a's keys, then b's: 1 and the message,
 * or 0 when equal. */
static int S_diff(const S_input *ia, const S_input *ib, json_t *a, json_t *b, const char *path)
{
	char *x, *y;
	if (json_is_object(a) && json_is_object(b)) {
		const char *key;
		json_t *v;
		int d = 0, pass;
		for (pass = 0; pass < 2 && !d; pass++)
			json_object_foreach(pass ? b : a, key, v) {
				char *sub = hb_sprintf("%s%s%s", path, *path ? "." : "", key);
				/* the second pass: keys only b has */
				if (!pass || !json_object_get(a, key))
					d = S_diff(ia, ib, json_object_get(a, key), json_object_get(b, key), sub);
				free(sub);
				if (d)
					break;
			}
		return d;
	}
	if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
		size_t i;
		int d = 0;
		for (i = 0; i < json_array_size(a) && !d; i++) {
			char *sub = hb_sprintf("%s[%zu]", path, i);
			d = S_diff(ia, ib, json_array_get(a, i), json_array_get(b, i), sub);
			free(sub);
		}
		return d;
	}
	if ((!a && !b) || (a && b && json_equal(a, b)))
		return 0;
	x = S_shown(a);
	y = S_shown(b);
	hb_error_set("merge: %s and %s differ in %s (%s vs %s)", ia->dir, ib->dir, path, x, y);
	free(x);
	free(y);
	return 1;
}

/* What of system.json differs between runs on identical machines with the same campaign. */
static json_t *S_description(const json_t *sys)
{
	static const char *per_run[][2] = { { "", "shard" }, { "", "overhead" },
		{ "campaign", "start" }, { "campaign", "end" }, { "campaign", "durations" },
		{ "campaign", "sentinel" },
		{ "counter", "hz" } }; /* counter.hz is compared on its own, within 1 % */
	json_t *d = json_deep_copy(sys);
	size_t i;
	for (i = 0; i < sizeof(per_run) / sizeof(per_run[0]); i++)
		json_object_del(S_at(d, per_run[i][0]), per_run[i][1]);
	return d;
}

static int S_same_machine(const S_input *a, const S_input *b)
{
	/* the version and the profile first: when they differ, much else does too */
	static const char *order[] = { "campaign.hashbench", "campaign.profile", "campaign", "",
		NULL };
	json_t *da = S_description(a->sys), *db = S_description(b->sys);
	json_t *ha = S_at(a->sys, "counter.hz"), *hb = S_at(b->sys, "counter.hz");
	size_t i;
	int rc = 0;

	for (i = 0; order[i] && rc == 0; i++)
		if (S_diff(a, b, S_at(da, order[i]), S_at(db, order[i]), order[i]))
			rc = HB_ERROR;
	json_decref(da);
	json_decref(db);
	if (rc != 0)
		return rc;
	if (json_is_number(ha) && json_is_number(hb)) {
		double x = json_number_value(ha), y = json_number_value(hb);
		if (fabs(x - y) > HZ_TOLERANCE * fmax(x, y))
			return hb_error_set("merge: %s and %s differ in counter.hz (%.0f vs %.0f, more than "
				"%.0f %% apart)", a->dir, b->dir, x, y, HZ_TOLERANCE * 100);
	} else if (S_diff(a, b, ha, hb, "counter.hz")) {
		return HB_ERROR;
	}
	return 0;
}

static int S_index_cmp(const void *x, const void *y)
{
	const S_input *a = x, *b = y;
	return (a->index > b->index) - (a->index < b->index);
}

static int S_same_campaign(S_merge *m)
{
	static const char *shard[] = { "shard.count", "shard.plan" }; /* absent: not a shard */
	size_t i;
	for (i = 0; i < m->nin; i++) {
		char ra[PATH_MAX], rb[PATH_MAX];
		size_t k;
		for (k = 0; k < i; k++)
			if (realpath(m->in[k].dir, ra) && realpath(m->in[i].dir, rb) && strcmp(ra, rb) == 0)
				return hb_error_set("merge: %s and %s are the same folder", m->in[k].dir,
					m->in[i].dir);
		if (i == 0)
			continue;
		if (strcmp(m->in[0].name, m->in[i].name) != 0)
			return hb_error_set("merge: %s and %s differ in system (\"%s\" vs \"%s\")",
				m->in[0].dir, m->in[i].dir, m->in[0].name, m->in[i].name);
		if (S_same_machine(&m->in[0], &m->in[i]) != 0)
			return HB_ERROR;
		for (k = 0; k < 2; k++)
			if (S_diff(&m->in[0], &m->in[i], S_at(m->in[0].sys, shard[k]),
					S_at(m->in[i].sys, shard[k]), shard[k]))
				return HB_ERROR;
	}
	if (!m->in[0].shard)
		return 0;
	qsort(m->in, m->nin, sizeof(*m->in), S_index_cmp);
	for (i = 1; i < m->nin; i++)
		if (m->in[i - 1].index == m->in[i].index)
			return hb_error_set("merge: %s and %s are both shard %lld of %lld", m->in[i - 1].dir,
				m->in[i].dir, m->in[i].index, m->in[i].count);
	return 0;
}

/* Every evidence file once; the same path in two inputs must hold the same bytes. */
static int S_join_units(S_merge *m)
{
	S_unit *all = NULL;
	size_t n = 0, i, k;
	int rc = 0;

	for (i = 0; i < m->nin && rc == 0; i++)
		for (k = 0; k < m->in[i].nsums && rc == 0; k++)
			if (strcmp(m->in[i].sums[k].rel, "system.json") != 0 &&
				strcmp(m->in[i].sums[k].rel, "sentinel.json") != 0) /* both joined apart */
				rc = S_push(&all, &n, m->in[i].sums[k].rel, m->in[i].sums[k].sha256, i);
	if (n > 1)
		qsort(all, n, sizeof(*all), S_rel_cmp);
	m->units = all; /* kept in place: the first input's copy of each */
	for (i = 0; i < n; i++) {
		S_unit *kept = m->nunits ? &all[m->nunits - 1] : NULL;
		if (kept && strcmp(kept->rel, all[i].rel) == 0) {
			if (rc == 0 && strcmp(kept->sha256, all[i].sha256) != 0)
				rc = hb_error_set("merge: %s and %s hold different copies of %s",
					m->in[kept->input].dir, m->in[all[i].input].dir, all[i].rel);
			free(all[i].rel);
		} else {
			all[m->nunits++] = all[i];
		}
	}
	return rc;
}

/* The catalog entry of an algorithm that one input has evidence of: parent/algorithms/<alg>.json,
 * a JSON object whose id is alg. */
static int S_catalog_entry(S_merge *m, size_t input, const char *alg)
{
	const S_input *in = &m->in[input];
	char *rel = hb_sprintf("%s.json", alg), *path = hb_sprintf("%s/algorithms/%s", in->parent, rel);
	const S_unit *had = S_find(m->catalog, m->ncatalog, rel);
	json_error_t jerr;
	json_t *j = NULL;
	char hex[65];
	int rc = 0;

	if (had && had->input == input)
		goto out;
	if (!hb_is_file(path))
		rc = hb_error_set("merge: %s: missing (the catalog entry of %s, which %s has evidence "
			"of)", path, alg, in->dir);
	else if (!(j = json_load_file(path, 0, &jerr)))
		rc = hb_error_set("merge: %s:%d: %s", path, jerr.line, jerr.text);
	else if (!json_is_string(json_object_get(j, "id")) ||
		strcmp(json_string_value(json_object_get(j, "id")), alg) != 0)
		rc = hb_error_set("merge: %s: id: expected \"%s\"", path, alg);
	else if (hb_sha256_file(hex, path) != 0)
		rc = hb_error_prefix("merge: ");
	else if (had && strcmp(had->sha256, hex) != 0)
		rc = hb_error_set("merge: %s and %s hold different copies of algorithms/%s (the catalog "
			"entry beside them)", m->in[had->input].dir, in->dir, rel);
	else if (!had && (rc = S_push(&m->catalog, &m->ncatalog, rel, hex, input)) == 0)
		qsort(m->catalog, m->ncatalog, sizeof(S_unit), S_rel_cmp);
out:
	json_decref(j);
	free(rel);
	free(path);
	return rc;
}

static int S_join_catalog(S_merge *m)
{
	size_t i, k;
	int rc = 0;
	for (i = 0; i < m->nin; i++) {
		char last[256] = "", id[256];
		for (k = 0; k < m->in[i].nsums && rc == 0; k++) {
			const char *rel = m->in[i].sums[k].rel, *alg = strchr(rel, '/');
			if (!alg || !strchr(alg + 1, '/') || (strncmp(rel, "records/", 8) != 0 &&
					strncmp(rel, "kat/", 4) != 0))
				continue;
			snprintf(id, sizeof(id), "%.*s", (int)strcspn(alg + 1, "/"), alg + 1);
			/* sorted: an algorithm's files follow each other under kat/ and under records/ */
			if (strcmp(last, id) != 0)
				rc = S_catalog_entry(m, i, id);
			memcpy(last, id, sizeof(id));
		}
	}
	return rc;
}

/* ---- what no shard measured ---- */

static void S_missing(S_merge *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_missing(S_merge *m, const char *fmt, ...)
{
	va_list ap;
	m->missing++;
	if (!m->o->progress)
		return;
	fprintf(m->o->progress, "hashbench: %smerge: ", m->o->allow_missing ? "warning: " : "");
	va_start(ap, fmt);
	vfprintf(m->o->progress, fmt, ap);
	va_end(ap);
	fputc('\n', m->o->progress);
}

/* Every KAT summary: its result (a PASS asks for every record) and the KAT sets it checked, the
 * same for every library of one campaign (system.json does not say which). */
static int S_read_kats(S_merge *m)
{
	const S_unit *first = NULL;
	long long mask0 = 0;
	size_t i;
	int rc = 0;

	for (i = 0; i < m->nunits && rc == 0; i++) {
		S_unit *u = &m->units[i];
		json_error_t jerr;
		json_t *j;
		const char *res;
		char *path;
		long long mask;
		if (strncmp(u->rel, "kat/", 4) != 0 || !strchr(u->rel + 4, '/') ||
			strcmp(u->rel + strlen(u->rel) - 5, ".json") != 0)
			continue;
		path = hb_path_join(m->in[u->input].dir, u->rel);
		j = json_load_file(path, 0, &jerr);
		res = json_string_value(json_object_get(j, "result"));
		mask = json_integer_value(json_object_get(j, "sets_mask"));
		if (!j)
			rc = hb_error_set("merge: %s:%d: %s", path, jerr.line, jerr.text);
		else if (!res)
			rc = hb_error_set("merge: %s: result: expected PASS, FAIL or ERROR", path);
		else if (first && mask != mask0)
			rc = hb_error_set("merge: %s/%s and %s differ in sets_mask (%lld vs %lld: other KAT "
				"sets were checked)", m->in[first->input].dir, first->rel, path, mask0, mask);
		u->passed = res && strcmp(res, "PASS") == 0;
		if (!first) {
			first = u;
			mask0 = mask;
		}
		json_decref(j);
		free(path);
	}
	return rc;
}

static void S_list_missing(S_merge *m)
{
	const S_input *first = &m->in[0];
	json_t *sizes = S_at(first->sys, "campaign.message_sizes"), *lib, *size;
	size_t i, k;
	long long idx;

	for (i = 0; i < m->nin; i++)
		if (json_is_null(S_at(m->in[i].sys, "campaign.end")))
			S_missing(m, "unfinished %s (campaign.end is null)", m->in[i].dir);
	if (!first->shard)
		return;
	for (idx = 1, i = 0; idx <= first->count; idx++) {
		while (i < m->nin && m->in[i].index < idx)
			i++;
		if (i == m->nin || m->in[i].index != idx)
			S_missing(m, "missing shard %lld of %lld (no input is that shard)", idx,
				first->count);
	}
	json_array_foreach(json_object_get(first->shard, "plan"), i, lib) {
		const char *name = json_string_value(lib), *stem = strchr(name, '/') + 1;
		char *rel = hb_sprintf("kat/%s.json", name);
		const S_unit *u = S_find(m->units, m->nunits, rel);
		free(rel);
		if (!u) {
			S_missing(m, "missing kat/%s.json (the KAT summary of %s)", name, name);
			continue;
		}
		json_array_foreach(u->passed ? sizes : NULL, k, size) {
			rel = hb_sprintf("records/%.*s/%s__hash_%lld.json", (int)(stem - 1 - name), name,
				stem, (long long)json_integer_value(size));
			if (!S_find(m->units, m->nunits, rel))
				S_missing(m, "missing %s (%s passed its KAT; no record of %lld-byte messages)", rel,
					name, (long long)json_integer_value(size));
			free(rel);
		}
	}
}

/* ---- where the merge goes ---- */

static int S_empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = d != NULL;
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	if (d)
		closedir(d);
	return empty;
}

static int S_check_out(S_merge *m)
{
	char real_out[PATH_MAX], real_in[PATH_MAX];
	struct stat st;
	size_t i;
	int rc = 0, exists;

	m->outsys = hb_path_join(m->o->out_data, m->in[0].name);
	if (!(exists = lstat(m->outsys, &st) == 0) && errno != ENOENT)
		return hb_error_set("merge: %s: %s", m->outsys, strerror(errno));
	for (i = 0; i < m->nin; i++)
		if (realpath(m->outsys, real_out) && realpath(m->in[i].dir, real_in) &&
			strcmp(real_out, real_in) == 0)
			return hb_error_set("merge: %s is one of the inputs: choose another --data",
				m->outsys);
	if (exists && (!S_ISDIR(st.st_mode) || !S_empty_dir(m->outsys)))
		return hb_error_set("merge: %s already exists and is not empty: remove it or choose "
			"another --data", m->outsys);
	for (i = 0; i < m->ncatalog && rc == 0; i++) {
		char *p = hb_sprintf("%s/algorithms/%s", m->o->out_data, m->catalog[i].rel);
		if (lstat(p, &st) == 0 && !S_ISREG(st.st_mode))
			rc = hb_error_set("merge: %s: exists and is not a file: remove it or choose "
				"another --data", p);
		free(p);
	}
	return rc;
}

static int S_remove_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st, (void)type, (void)f;
	return remove(path) != 0 ? -1 : 0;
}

static void S_remove_tree(const char *path)
{
	if (path)
		nftw(path, S_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Copy a unit (catalog: a catalog entry) into the folder to, atomically, checking that its bytes
 * are still those verified. */
static int S_copy(const S_merge *m, const S_unit *u, int catalog, const char *to)
{
	const S_input *in = &m->in[u->input];
	char *src = catalog ? hb_sprintf("%s/algorithms/%s", in->parent, u->rel) :
		hb_path_join(in->dir, u->rel);
	char hex[65], *dst = hb_path_join(to, u->rel);
	char *dir = hb_sprintf("%.*s", (int)(strrchr(dst, '/') - dst), dst);
	hb_buf buf = { NULL, 0 };
	unsigned char md[32];
	int rc = hb_file_read_raw(&buf, src);

	if (rc == 0) {
		hb_sha256(md, buf.data, buf.len);
		hb_hex(hex, md, 32, 0);
		if (strcmp(hex, u->sha256) != 0)
			rc = hb_error_set("merge: %s changed while it was merged", src);
		else if ((rc = hb_mkdir_p(dir)) == 0)
			rc = hb_file_write_atomic(dst, buf.data, buf.len);
	}
	hb_buf_free(&buf);
	free(src);
	free(dst);
	free(dir);
	return rc;
}

/* system.json of the whole: the shared description, the campaign from the earliest start to the
 * latest end (null while any input is unfinished), and what each input was. */
static int S_write_system(const S_merge *m, const char *dir)
{
	json_t *sys = json_deep_copy(m->in[0].sys), *c = json_object_get(sys, "campaign");
	json_t *start = NULL, *end = NULL, *shards = json_array(), *summary;
	json_t **all = calloc(m->nin, sizeof(*all));
	char *text, *line, *path = hb_path_join(dir, "system.json");
	size_t i;
	int finished = 1, rc;

	json_object_del(sys, "shard");
	json_object_del(c, "durations");
	for (i = 0; i < m->nin; i++) {
		const S_input *in = &m->in[i];
		json_t *ic = json_object_get(in->sys, "campaign"), *e = json_object_get(ic, "end");
		json_t *s = json_object_get(ic, "start"), *one;
		if (!start || strcmp(json_string_value(s), json_string_value(start)) < 0)
			start = s;
		if (json_is_null(e))
			finished = 0;
		else if (!end || strcmp(json_string_value(e), json_string_value(end)) > 0)
			end = e;
		one = json_pack("{s:o, s:o, s:O, s:O, s:o, s:O?, s:O?}",
			"index", in->shard ? json_integer(in->index) : json_null(),
			"count", in->shard ? json_integer(in->count) : json_null(), "start", s, "end", e,
			"libraries", in->shard ? json_integer((json_int_t)json_array_size(
				json_object_get(in->shard, "libraries"))) : json_null(),
			"overhead", json_object_get(in->sys, "overhead"),
			"counter_hz", S_at(in->sys, "counter.hz"));
		if (json_object_get(ic, "durations"))
			json_object_set(one, "durations", json_object_get(ic, "durations"));
		if (json_object_get(ic, "sentinel"))
			json_object_set(one, "sentinel", json_object_get(ic, "sentinel"));
		json_array_append_new(shards, one);
		all[i] = in->sys;
	}
	json_object_del(c, "sentinel");
	if ((summary = hb_merge_sentinel_summary(all, m->nin)) != NULL)
		json_object_set_new(c, "sentinel", summary);
	free(all);
	json_object_set(c, "start", start);
	json_object_set(c, "end", finished ? end : json_null());
	json_object_set_new(sys, "shards", shards);
	text = json_dumps(sys, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	line = text ? hb_sprintf("%s\n", text) : NULL; /* the final newline, as the campaign writes */
	rc = line ? hb_file_write_atomic(path, line, strlen(line)) :
		hb_error_set("merge: cannot serialise system.json");
	json_decref(sys);
	free(text);
	free(line);
	free(path);
	return rc;
}

/* Put the catalog entries in place, keeping what they replace in backup until the end. Undone
 * (undo set) in reverse from entry `done`. */
static int S_place_catalog(const S_merge *m, const char *stage, size_t *done, int undo)
{
	int rc = 0;
	while (undo ? *done > 0 : *done < m->ncatalog) {
		size_t i = undo ? --*done : *done;
		char *dst = hb_sprintf("%s/algorithms/%s", m->o->out_data, m->catalog[i].rel);
		char *src = hb_sprintf("%s/algorithms/%s", stage, m->catalog[i].rel);
		char *backup = hb_sprintf("%s/backup/%s", stage, m->catalog[i].rel);
		if (undo && rename(backup, dst) != 0)
			unlink(dst); /* no backup: the entry is new */
		else if (!undo && ((link(dst, backup) != 0 && errno != ENOENT) || rename(src, dst) != 0))
			rc = hb_error_set("merge: %s: cannot put the catalog entry in place: %s", dst,
				strerror(errno));
		else if (!undo)
			++*done;
		free(dst);
		free(src);
		free(backup);
		if (rc != 0)
			break;
	}
	return rc;
}

/* Everything into a hidden folder beside OUT/<system>, then renamed into place. */
static int S_write(S_merge *m)
{
	const char *out_data = m->o->out_data;
	char *stage = hb_sprintf("%s/.%s.merge.%ld", out_data, m->in[0].name, (long)getpid());
	char *stage_sys = hb_path_join(stage, m->in[0].name);
	char *stage_alg = hb_path_join(stage, "algorithms"), *backup = hb_path_join(stage, "backup");
	char *alg_dir = hb_path_join(out_data, "algorithms");
	int made_out = !hb_is_dir(out_data), made_alg = !hb_is_dir(alg_dir), rc;
	size_t placed = 0, i;

	if ((rc = hb_mkdir_p(out_data)) != 0)
		goto out;
	S_remove_tree(stage);
	if ((rc = hb_mkdir_p(stage_sys)) != 0 || (rc = hb_mkdir_p(stage_alg)) != 0 ||
		(rc = hb_mkdir_p(backup)) != 0)
		goto out;
	for (i = 0; i < m->nunits + m->ncatalog && rc == 0; i++)
		rc = i < m->nunits ? S_copy(m, &m->units[i], 0, stage_sys) :
			S_copy(m, &m->catalog[i - m->nunits], 1, stage_alg);
	if (rc == 0) {
		const char **dirs = calloc(m->nin, sizeof(*dirs));
		for (i = 0; dirs && i < m->nin; i++)
			dirs[i] = m->in[i].dir;
		rc = dirs ? hb_merge_sentinel(dirs, m->nin, stage_sys) : hb_error_set("out of memory");
		free(dirs);
	}
	if (rc != 0 || (rc = S_write_system(m, stage_sys)) != 0 ||
		(rc = hb_write_sha256sums(stage_sys)) != 0 ||
		(rc = hb_mkdir_p(alg_dir)) != 0 || (rc = S_place_catalog(m, stage, &placed, 0)) != 0)
		goto out;
	if (rename(stage_sys, m->outsys) != 0)
		rc = hb_error_set("merge: %s: cannot put the merge in place: %s", m->outsys,
			strerror(errno));
out:
	/* undoing sets no message: the failure's stays */
	if (rc != 0)
		S_place_catalog(m, stage, &placed, 1);
	S_remove_tree(stage);
	if (rc != 0 && made_alg)
		rmdir(alg_dir);
	if (rc != 0 && made_out)
		rmdir(out_data);
	if (rc != 0 && strncmp(hb_error_last(), "merge: ", 7) != 0)
		hb_error_prefix("merge: ");
	free(stage);
	free(stage_sys);
	free(stage_alg);
	free(backup);
	free(alg_dir);
	return rc;
}

/* ---- the whole ---- */

int hb_merge(hb_merge_summary *out, const hb_merge_opts *o)
{
	S_merge m;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&m, 0, sizeof(m));
	m.o = o;
	if (!o->out_data || !*o->out_data || o->ninputs == 0)
		return hb_error_set("merge: name --data OUT and at least one shard folder");
	if (!(m.in = calloc(o->ninputs, sizeof(*m.in))))
		return hb_error_set("merge: out of memory");
	for (i = 0; i < o->ninputs && rc == 0; i++, m.nin++)
		rc = S_load_input(&m.in[i], o->inputs[i]);
	if (rc != 0 || (rc = S_same_campaign(&m)) != 0 || (rc = S_join_units(&m)) != 0 ||
		(rc = S_read_kats(&m)) != 0 || (rc = S_join_catalog(&m)) != 0 ||
		(rc = S_check_out(&m)) != 0)
		goto out;
	S_list_missing(&m);
	out->missing = m.missing;
	if (m.missing && !o->allow_missing) {
		rc = hb_error_set("merge: %zu unit%s missing or unfinished (listed above); nothing "
			"written (--allow-missing writes the merge without %s)", m.missing,
			m.missing == 1 ? "" : "s", m.missing == 1 ? "it" : "them");
		goto out;
	}
	if ((rc = S_write(&m)) == 0) {
		out->inputs = m.nin;
		out->files = m.nunits + 2; /* with system.json and SHA256SUMS */
		out->catalog = m.ncatalog;
		snprintf(out->system, sizeof(out->system), "%s", m.in[0].name);
	}
out:
	for (i = 0; i < m.nin; i++) {
		free(m.in[i].dir);
		free(m.in[i].parent);
		json_decref(m.in[i].sys);
		S_units_free(m.in[i].sums, m.in[i].nsums);
	}
	free(m.in);
	S_units_free(m.units, m.nunits);
	S_units_free(m.catalog, m.ncatalog);
	free(m.outsys);
	return rc;
}
