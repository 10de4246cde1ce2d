/* merge_input.c — one input of `hashbench merge`: a shard's evidence folder, its SHA256SUMS
 * checked against the files there and its system.json against the shard it says it ran. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "hbcommands.h"
#include "merge_input.h"

int hb_merge_unit_cmp(const void *a, const void *b)
{
	const hb_merge_unit *x = a, *y = b;
	int c = strcmp(x->rel, y->rel);
	return c ? c : (x->input > y->input) - (x->input < y->input);
}

static int S_key_cmp(const void *key, const void *unit)
{
	return strcmp(key, ((const hb_merge_unit *)unit)->rel);
}

const hb_merge_unit *hb_merge_unit_find(const hb_merge_unit *v, size_t n, const char *rel)
{
	return n ? bsearch(rel, v, n, sizeof(*v), S_key_cmp) : NULL;
}

int hb_merge_unit_push(hb_merge_unit **v, size_t *n, const char *rel, const char *sha256,
	size_t input)
{
	hb_merge_unit *g = realloc(*v, (*n + 1) * sizeof(**v));
	if (!g)
		return hb_error_set("merge: out of memory");
	*v = g;
	g[*n] = (hb_merge_unit){ hb_strdup(rel), "", input, 0 };
	memcpy(g[*n].sha256, sha256, 65);
	if (!g[*n].rel)
		return hb_error_set("merge: out of memory");
	(*n)++;
	return 0;
}

void hb_merge_units_free(hb_merge_unit *v, size_t n)
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

json_t *hb_merge_at(json_t *j, const char *path)
{
	while (j && *path) {
		size_t n = strcspn(path, ".");
		j = json_object_getn(j, path, n);
		path += n + (path[n] == '.');
	}
	return j;
}


/* "<alg>/<stem>" as a shard's libraries and plan name a library. */
static int S_library_ok(const json_t *v)
{
	const char *s = json_string_value(v), *slash = s ? strchr(s, '/') : NULL;
	return slash && slash != s && slash[1] && !strchr(slash + 1, '/') && s[0] != '.' &&
		slash[1] != '.';
}

static int S_check_shard(hb_merge_input *in)
{
	json_t *idx = hb_merge_at(in->shard, "index"), *cnt = hb_merge_at(in->shard, "count");
	json_t *libs = hb_merge_at(in->shard, "libraries"), *plan = hb_merge_at(in->shard, "plan");
	json_t *v, *set;
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

static int S_load_system(hb_merge_input *in)
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
static int S_load_sums(hb_merge_input *in)
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
			rc = hb_merge_unit_push(&in->sums, &in->nsums, line + 66, line, 0);
		}
	}
	/* a line listed twice is checked twice: harmless */
	if (rc == 0 && in->nsums > 1)
		qsort(in->sums, in->nsums, sizeof(hb_merge_unit), hb_merge_unit_cmp);
	hb_buf_free(&buf);
	free(path);
	return rc;
}

/* nftw passes no argument to its callback: the input being walked, and the length of its real
 * path (the walk starts there, so that a folder given as a symbolic link is walked too). */
static _Thread_local const hb_merge_input *S_walking;
static _Thread_local size_t S_walking_root;

static int S_walk_one(const char *fpath, const struct stat *st, int type, struct FTW *f)
{
	const char *name = fpath + f->base, *rel = fpath + S_walking_root + 1;
	if (f->level == 0)
		return FTW_CONTINUE;
	if (name[0] == '.' || strstr(name, ".tmp."))
		return type == FTW_D ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	/* history.json: the folder's own past campaigns, not evidence SHA256SUMS lists */
	if (type == FTW_D || strcmp(rel, "SHA256SUMS") == 0 || strcmp(rel, "history.json") == 0)
		return FTW_CONTINUE;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		hb_error_set("merge: %s/%s: not a regular file or folder", S_walking->dir, rel);
	else if (!hb_merge_unit_find(S_walking->sums, S_walking->nsums, rel))
		hb_error_set("merge: %s/%s is not listed in %s/SHA256SUMS", S_walking->dir, rel,
			S_walking->dir);
	else
		return FTW_CONTINUE;
	return FTW_STOP;
}

/* Every file SHA256SUMS lists is there with that SHA-256, and nothing else is there. */
static int S_verify(const hb_merge_input *in)
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

int hb_merge_input_load(hb_merge_input *in, const char *dir)
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

void hb_merge_input_clear(hb_merge_input *in)
{
	free(in->dir);
	free(in->parent);
	json_decref(in->sys);
	hb_merge_units_free(in->sums, in->nsums);
}
