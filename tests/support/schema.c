/* schema.c — the evidence contract of DESIGN.md as the tests check it: every file parses and
 * has every field with the right type. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "support.h"

static int S_fail(char **why, const char *path, const char *fmt, const char *detail)
{
	*why = hb_sprintf("%s: %s%s", path, fmt, detail ? detail : "");
	return -1;
}

static int S_check_record(json_t *j, const char *path, char **why)
{
	json_error_t err;
	json_t *trials, *t, *cmd, *v;
	json_int_t bytes, out_bytes, stat;
	const char *status, *op;
	char want_op[64];
	size_t i;

	if (json_unpack_ex(j, &err, 0, "{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:s, s:o, s:o,"
			" s:{s:s, s:s, s:s, s:s}, s:{s:i, s:s, s:o, s:o, s:s, s:s}, s:{s:I, s:o, s:o}}",
			"system", &status, "algorithm", &status, "instance", &status, "implementation",
			&status, "operation", &op, "message_bytes", &bytes, "output_bytes", &out_bytes,
			"status", &status, "command", &cmd, "trials", &trials,
			"build", "flags", &status, "cflags", &status, "library", &status, "library_sha256",
			&status, "environment", "cpu", &stat, "counter", &status, "governor", &v,
			"cur_khz", &v, "started", &status, "finished", &status,
			"resources", "static_bytes", &stat, "baseline_rss_kib", &v, "peak_rss_kib", &v) != 0)
		return S_fail(why, path, "", err.text);
	status = json_string_value(json_object_get(j, "status"));
	snprintf(want_op, sizeof(want_op), "hash_%lld", (long long)bytes);
	if (strcmp(op, want_op) != 0 || bytes <= 0)
		return S_fail(why, path, "operation does not match message_bytes", NULL);
	if (strcmp(status, "ok") && strcmp(status, "crash") && strcmp(status, "timeout") &&
		strcmp(status, "error") && strcmp(status, "violation"))
		return S_fail(why, path, "status: unknown value ", status);
	if (strcmp(status, "ok") != 0 && !json_is_string(json_object_get(j, "detail")))
		return S_fail(why, path, "a failed record has no detail", NULL);
	if (!json_is_array(cmd) || json_array_size(cmd) < 2)
		return S_fail(why, path, "command: expected the argument list", NULL);
	json_array_foreach(cmd, i, v)
		if (!json_is_string(v))
			return S_fail(why, path, "command: expected strings", NULL);
	if (!json_is_array(trials) || (strcmp(status, "ok") == 0 && json_array_size(trials) == 0))
		return S_fail(why, path, "trials: expected the rounds", NULL);
	json_array_foreach(trials, i, t) {
		json_int_t it, cy, ns;
		if (json_unpack_ex(t, &err, JSON_STRICT, "{s:I, s:I, s:I}", "iterations", &it,
				"cycles", &cy, "ns", &ns) != 0)
			return S_fail(why, path, "trials: ", err.text);
		if (it <= 0 || cy < 0 || ns <= 0)
			return S_fail(why, path, "trials: a round without calls or time", NULL);
	}
	if (strcmp(status, "ok") == 0 &&
		(!json_is_integer(json_object_get(json_object_get(j, "resources"), "peak_rss_kib"))))
		return S_fail(why, path, "resources.peak_rss_kib: expected an integer", NULL);
	if (strcmp(status, "ok") == 0 && json_object_get(j, "passes")) {
		/* the headline (records of this version, which list their passes): the median of the
		 * calm passes' fastest blocks, in cycles per call and per byte */
		json_t *h = json_object_get(j, "headline"), *p;
		double cpc, cpb;
		int calm;
		if (json_unpack_ex(h, &err, 0, "{s:s, s:F, s:F, s:o}", "estimator", &op,
				"cycles_per_call", &cpc, "cycles_per_byte", &cpb, "passes", &v) != 0)
			return S_fail(why, path, "headline: ", err.text);
		if (!(cpc > 0) || fabs(cpb * (double)bytes - cpc) > 1e-6 * cpc || !json_is_array(v) ||
			json_array_size(v) == 0)
			return S_fail(why, path, "headline: cycles_per_byte is not cycles_per_call / bytes, "
				"or no pass", NULL);
		json_array_foreach(json_object_get(j, "passes"), i, p)
			if (json_unpack_ex(p, &err, 0, "{s:I, s:b, s:F, s:s, s:s}", "pass", &stat, "calm",
					&calm, "min_cycles_per_call", &cpc, "started", &op, "finished",
					&op) != 0)
				return S_fail(why, path, "passes: ", err.text);
		if (!json_is_boolean(json_object_get(j, "disturbed")))
			return S_fail(why, path, "disturbed: expected true or false", NULL);
	}
	{
		/* the exact memory figures: optional (earlier versions), an integer or null */
		static const char *const mem[] = { "stack_bytes", "heap_peak_bytes",
			"heap_allocations", "mmap_bytes", "text_bytes", "data_bytes", NULL };
		json_t *res = json_object_get(j, "resources");
		for (i = 0; mem[i]; i++) {
			v = json_object_get(res, mem[i]);
			if (v && !json_is_null(v) && !(json_is_integer(v) && json_integer_value(v) >= 0))
				return S_fail(why, path, "resources: expected a byte count or null: ", mem[i]);
		}
	}
	return 0;
}

/* The unit of the figures (absent in evidence of earlier versions): cycles when the counter
 * counts the core's cycles or a core clock converts its ticks, else ticks. */
static int S_check_counter(json_t *c, const char *path, char **why)
{
	json_t *unit = json_object_get(c, "unit"), *counts, *core;
	int cycles;
	if (!unit)
		return 0;
	counts = json_object_get(c, "counts_core_cycles");
	core = json_object_get(c, "core_hz");
	if (!json_is_boolean(counts))
		return S_fail(why, path, "counter.counts_core_cycles: expected a boolean", NULL);
	if (!json_is_null(core) && !(json_is_integer(core) && json_integer_value(core) > 0))
		return S_fail(why, path, "counter.core_hz: expected null or a clock in Hz", NULL);
	if (!json_is_null(core) && !json_is_integer(json_object_get(c, "hz")))
		return S_fail(why, path, "counter.core_hz: declared for a counter of no known rate", NULL);
	cycles = json_is_true(counts) || !json_is_null(core);
	if (!json_is_string(unit) || strcmp(json_string_value(unit), cycles ? "cycles" : "ticks"))
		return S_fail(why, path, "counter.unit: expected ", cycles ? "cycles" : "ticks");
	return 0;
}

static int S_check_system(json_t *j, const char *path, char **why)
{
	json_error_t err;
	json_t *v;
	json_int_t cpu;
	const char *s;
	if (json_unpack_ex(j, &err, 0, "{s:s, s:o, s:o, s:I, s:{s:o, s:o, s:o, s:o, s:o}, s:o, s:o,"
			" s:o, s:o, s:o, s:{s:s, s:o}, s:{s:s, s:o, s:s, s:s}}",
			"system", &s, "arch", &v, "processor", &v, "cpu", &cpu,
			"clock", "governor", &v, "min_khz", &v, "max_khz", &v, "boost", &v, "smt", &v,
			"memory_mib", &v, "os", &v, "kernel", &v, "compiler", &v, "build_tool", &v,
			"counter", "name", &s, "hz", &v,
			"campaign", "start", &s, "end", &v, "profile", &s, "hashbench", &s) != 0)
		return S_fail(why, path, "", err.text);
	return S_check_counter(json_object_get(j, "counter"), path, why);
}

static int S_check_kat(json_t *j, const char *path, char **why)
{
	json_error_t err;
	json_t *files, *f;
	const char *s, *result;
	size_t i;
	if (json_unpack_ex(j, &err, 0, "{s:s, s:s, s:s, s:o, s:s}", "instance", &s,
			"implementation", &s, "build_flags", &s, "files", &files, "result", &result) != 0)
		return S_fail(why, path, "", err.text);
	if (strcmp(result, "PASS") && strcmp(result, "FAIL") && strcmp(result, "ERROR") &&
		(strcmp(result, "UNVERIFIED") || !json_object_get(j, "supercop")))
		return S_fail(why, path, "result: unknown value ", result);
	if (!json_is_array(files))
		return S_fail(why, path, "files: expected an array", NULL);
	json_array_foreach(files, i, f) {
		json_t *n, *expected, *sha;
		if (json_unpack_ex(f, &err, 0, "{s:s, s:o, s:o, s:o, s:s}", "name", &s, "sha256",
				&sha, "expected_sha256", &expected, "entries", &n, "result", &s) != 0)
			return S_fail(why, path, "files: ", err.text);
		/* nothing passes without a value it was compared with */
		if (strcmp(s, "PASS") == 0 && !json_is_string(expected))
			return S_fail(why, path, "files: PASS without an expected_sha256", NULL);
		/* an imported summary: the other tool's log does not count the entries */
		if (!json_is_integer(n) && !(json_is_null(n) && json_object_get(j, "imported")))
			return S_fail(why, path, "files: entries: expected an integer", NULL);
	}
	return 0;
}

/* sentinel.json: the trace of the machine's speed. */
/* history.json: the campaigns, each with its times, version, profile, CPU, counter, the
 * sentinel's best (or null) and the yardsticks' headlines. */
static int S_check_history(json_t *j, const char *path, char **why)
{
	json_error_t err;
	json_t *list, *e, *y, *best, *ys;
	const char *sys;
	size_t i, k;

	if (json_unpack_ex(j, &err, 0, "{s:s, s:o}", "system", &sys, "campaigns",
			&list) != 0 || !json_is_array(list))
		return S_fail(why, path, "", json_is_array(list) ? err.text : "campaigns: an array");
	json_array_foreach(list, i, e) {
		const char *s[5];
		json_int_t cpu;
		if (json_unpack_ex(e, &err, 0, "{s:s, s:s, s:s, s:s, s:I, s:s, s:o, s:o}", "start", &s[0],
				"end", &s[1], "hashbench", &s[2], "profile", &s[3], "cpu", &cpu, "counter",
				&s[4], "sentinel_best_cycles", &best, "yardsticks", &ys) != 0)
			return S_fail(why, path, "campaigns: ", err.text);
		if (!json_is_null(best) && !(json_number_value(best) > 0))
			return S_fail(why, path, "sentinel_best_cycles: above 0 or null", NULL);
		if (!json_is_array(ys))
			return S_fail(why, path, "yardsticks: expected an array", NULL);
		json_array_foreach(ys, k, y) {
			json_int_t bytes;
			double cpb;
			if (json_unpack_ex(y, &err, 0, "{s:s, s:s, s:I, s:F}", "instance", &s[0],
					"implementation", &s[1], "message_bytes", &bytes, "cycles_per_byte",
					&cpb) != 0 || bytes < 1024 || !(cpb > 0))
				return S_fail(why, path, "yardsticks: ", err.text);
		}
	}
	return 0;
}

static int S_check_sentinel(json_t *j, const char *path, char **why)
{
	json_error_t err;
	json_t *readings, *x;
	const char *s;
	double limit;
	size_t i;

	if (json_unpack_ex(j, &err, 0, "{s:s, s:F, s:o}", "workload", &s, "limit_pct", &limit,
			"readings", &readings) != 0)
		return S_fail(why, path, "", err.text);
	if (!json_is_array(readings) || !(limit > 0))
		return S_fail(why, path, "readings: expected an array, limit_pct above 0", NULL);
	json_array_foreach(readings, i, x) {
		json_int_t cpu, attempt, cycles, ns;
		double t;
		const char *when, *time;
		json_t *rec;
		if (json_unpack_ex(x, &err, 0, "{s:s, s:F, s:I, s:o, s:s, s:I, s:I, s:I}",
				"time", &time, "t_s", &t, "cpu", &cpu, "record", &rec, "when", &when,
				"attempt", &attempt, "cycles", &cycles, "ns", &ns) != 0)
			return S_fail(why, path, "readings: ", err.text);
		if (strcmp(when, "calibration") && strcmp(when, "before") && strcmp(when, "after"))
			return S_fail(why, path, "readings: when: unknown value ", when);
		if (!json_is_null(rec) && !json_is_string(rec))
			return S_fail(why, path, "readings: record: expected a path or null", NULL);
		if (cycles <= 0 || ns <= 0 || t < 0)
			return S_fail(why, path, "readings: a reading without cycles or time", NULL);
	}
	return 0;
}

int hbt_evidence_valid(const char *path, char **why)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	const char *schema;
	int rc;

	*why = NULL;
	if (!j)
		return S_fail(why, path, "does not parse: ", err.text);
	schema = json_string_value(json_object_get(j, "schema"));
	if (!schema)
		rc = json_is_string(json_object_get(j, "id")) && json_is_string(json_object_get(j, "name"))
			? 0 : S_fail(why, path, "no schema and not a catalog entry", NULL);
	else if (strcmp(schema, "hashbench.record/1") == 0)
		rc = S_check_record(j, path, why);
	else if (strcmp(schema, "hashbench.system/1") == 0)
		rc = S_check_system(j, path, why);
	else if (strcmp(schema, "hashbench.kat/1") == 0)
		rc = S_check_kat(j, path, why);
	else if (strcmp(schema, "hashbench.sentinel/1") == 0)
		rc = S_check_sentinel(j, path, why);
	else if (strcmp(schema, "hashbench.history/1") == 0)
		rc = S_check_history(j, path, why);
	else
		rc = S_fail(why, path, "unknown schema ", schema);
	json_decref(j);
	return rc;
}

size_t hbt_evidence_check_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	cr_assert_not_null(d, "%s", dir);
	while ((de = readdir(d)) != NULL) {
		char *sub, *why = NULL;
		struct stat st;
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.')
			continue;
		sub = hb_path_join(dir, de->d_name);
		cr_assert(!strstr(de->d_name, ".tmp."), "a temporary file was left: %s", sub);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			n += hbt_evidence_check_tree(sub);
		} else if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			cr_expect_eq(hbt_evidence_valid(sub, &why), 0, "%s", why);
			free(why);
			n++;
		}
		free(sub);
	}
	closedir(d);
	return n;
}
