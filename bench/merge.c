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

#include "hbcommands.h"
#include "merge_input.h"

/* counter.hz is calibrated by every run; identical machines agree far better than this */
#define HZ_TOLERANCE 0.01

typedef struct {
	const hb_merge_opts *o;
	hb_merge_input *in; /* sorted by shard index */
	size_t nin;
	hb_merge_unit *units; /* every evidence file of every input but system.json, sorted, unique */
	size_t nunits;
	hb_merge_unit *catalog; /* rel "<alg>.json" under some input's parent/algorithms */
	size_t ncatalog;
	char *outsys;       /* OUT/<system> */
	size_t missing;
} S_merge;

/* ---- small helpers ---- */

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

/* ---- can these inputs be joined? ---- */

/* The first place where a and b differ, in the order of a's keys, then b's: 1 and the message,
 * or 0 when equal. */
static int S_diff(const hb_merge_input *ia, const hb_merge_input *ib, json_t *a, json_t *b,
	const char *path)
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
		{ "campaign", "sentinel" }, { "campaign", "seed" }, { "campaign", "history" },
		{ "campaign", "paired" }, { "counter", "hz" } }; /* counter.hz: compared within 1 % */
	json_t *d = json_deep_copy(sys);
	size_t i;
	for (i = 0; i < sizeof(per_run) / sizeof(per_run[0]); i++)
		json_object_del(hb_merge_at(d, per_run[i][0]), per_run[i][1]);
	return d;
}

static int S_same_machine(const hb_merge_input *a, const hb_merge_input *b)
{
	/* the version and the profile first: when they differ, much else does too */
	static const char *order[] = { "campaign.hashbench", "campaign.profile", "campaign", "",
		NULL };
	json_t *da = S_description(a->sys), *db = S_description(b->sys);
	json_t *ha = hb_merge_at(a->sys, "counter.hz"), *hb = hb_merge_at(b->sys, "counter.hz");
	size_t i;
	int rc = 0;

	for (i = 0; order[i] && rc == 0; i++)
		if (S_diff(a, b, hb_merge_at(da, order[i]), hb_merge_at(db, order[i]), order[i]))
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
	const hb_merge_input *a = x, *b = y;
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
			if (S_diff(&m->in[0], &m->in[i], hb_merge_at(m->in[0].sys, shard[k]),
					hb_merge_at(m->in[i].sys, shard[k]), shard[k]))
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
	hb_merge_unit *all = NULL;
	size_t n = 0, i, k;
	int rc = 0;

	for (i = 0; i < m->nin && rc == 0; i++)
		for (k = 0; k < m->in[i].nsums && rc == 0; k++)
			if (strcmp(m->in[i].sums[k].rel, "system.json") != 0 &&
				strcmp(m->in[i].sums[k].rel, "sentinel.json") != 0 && /* both joined apart */
				strcmp(m->in[i].sums[k].rel, "history.json") != 0) /* a folder's own past */
				rc = hb_merge_unit_push(&all, &n, m->in[i].sums[k].rel, m->in[i].sums[k].sha256, i);
	if (n > 1)
		qsort(all, n, sizeof(*all), hb_merge_unit_cmp);
	m->units = all; /* kept in place: the first input's copy of each */
	for (i = 0; i < n; i++) {
		hb_merge_unit *kept = m->nunits ? &all[m->nunits - 1] : NULL;
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
	const hb_merge_input *in = &m->in[input];
	char *rel = hb_sprintf("%s.json", alg), *path = hb_sprintf("%s/algorithms/%s", in->parent, rel);
	const hb_merge_unit *had = hb_merge_unit_find(m->catalog, m->ncatalog, rel);
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
	else if (!had && (rc = hb_merge_unit_push(&m->catalog, &m->ncatalog, rel, hex, input)) == 0)
		qsort(m->catalog, m->ncatalog, sizeof(hb_merge_unit), hb_merge_unit_cmp);
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
	va_start(ap, fmt);
	hb_vnote(m->o->progress, 0, m->o->allow_missing ? "warning: merge: " : "merge: ", fmt, ap);
	va_end(ap);
}

/* Every KAT summary: its result (a PASS asks for every record) and the KAT sets it checked, the
 * same for every library of one campaign (system.json does not say which). */
static int S_read_kats(S_merge *m)
{
	const hb_merge_unit *first = NULL;
	long long mask0 = 0;
	size_t i;
	int rc = 0;

	for (i = 0; i < m->nunits && rc == 0; i++) {
		hb_merge_unit *u = &m->units[i];
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
		/* timed: passed, or unverified (no checksums to compare with, timed all the same) */
		u->passed = res && (strcmp(res, "PASS") == 0 || strcmp(res, "UNVERIFIED") == 0);
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
	const hb_merge_input *first = &m->in[0];
	json_t *sizes = hb_merge_at(first->sys, "campaign.message_sizes"), *lib, *size;
	size_t i, k;
	long long idx;

	for (i = 0; i < m->nin; i++)
		if (json_is_null(hb_merge_at(m->in[i].sys, "campaign.end")))
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
		const hb_merge_unit *u = hb_merge_unit_find(m->units, m->nunits, rel);
		free(rel);
		if (!u) {
			S_missing(m, "missing kat/%s.json (the KAT summary of %s)", name, name);
			continue;
		}
		json_array_foreach(u->passed ? sizes : NULL, k, size) {
			rel = hb_sprintf("records/%.*s/%s__hash_%lld.json", (int)(stem - 1 - name), name,
				stem, (long long)json_integer_value(size));
			if (!hb_merge_unit_find(m->units, m->nunits, rel))
				S_missing(m, "missing %s (%s was timed after its KAT; no record of %lld-byte "
					"messages)", rel, name, (long long)json_integer_value(size));
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
static int S_copy(const S_merge *m, const hb_merge_unit *u, int catalog, const char *to)
{
	const hb_merge_input *in = &m->in[u->input];
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
	json_object_del(c, "paired"); /* each run's own, and each record's headline names it */
	for (i = 0; i < m->nin; i++) {
		const hb_merge_input *in = &m->in[i];
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
			"counter_hz", hb_merge_at(in->sys, "counter.hz"));
		if (json_object_get(ic, "durations"))
			json_object_set(one, "durations", json_object_get(ic, "durations"));
		if (json_object_get(ic, "sentinel"))
			json_object_set(one, "sentinel", json_object_get(ic, "sentinel"));
		if (json_object_get(ic, "paired"))
			json_object_set(one, "paired", json_object_get(ic, "paired"));
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
		rc = hb_merge_input_load(&m.in[i], o->inputs[i]);
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
	for (i = 0; i < m.nin; i++)
		hb_merge_input_clear(&m.in[i]);
	free(m.in);
	hb_merge_units_free(m.units, m.nunits);
	hb_merge_units_free(m.catalog, m.ncatalog);
	free(m.outsys);
	return rc;
}
