/* import_record.c — one file of the earlier harness (ngcc-harness), read as untrusted input and
 * converted: a schema-2 timing record into a hashbench.record/1, a KAT log into a hashbench.kat/1
 * summary. Every problem is one "field: what" naming the value. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

const char *hb_imp_version(void)
{
	return "hashbench " HB_VERSION " (git " HB_GIT_COMMIT ")";
}

int hb_imp_name_ok(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n <= 200 && s[0] != '.' && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

int hb_imp_utc(char out[32], const char *iso)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	struct tm tm;
	const char *p;
	long off = 0;
	time_t t;
	size_t i;

	for (i = 0; iso && shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)iso[i]) : iso[i] != shape[i])
			return -1;
	if (!iso)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = atoi(iso) - 1900;
	tm.tm_mon = atoi(iso + 5) - 1;
	tm.tm_mday = atoi(iso + 8);
	tm.tm_hour = atoi(iso + 11);
	tm.tm_min = atoi(iso + 14);
	tm.tm_sec = atoi(iso + 17);
	p = iso + 19;
	if (*p == '.' && isdigit((unsigned char)p[1]))
		for (p++; isdigit((unsigned char)*p); p++)
			;
	if (*p == 'Z') {
		p++;
	} else if ((*p == '+' || *p == '-') && isdigit((unsigned char)p[1]) &&
		isdigit((unsigned char)p[2]) && p[3] == ':' && isdigit((unsigned char)p[4]) &&
		isdigit((unsigned char)p[5])) {
		off = (atoi(p + 1) * 60L + atoi(p + 4)) * 60L * (*p == '-' ? -1 : 1);
		p += 6;
	}
	if (*p || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
		tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	t = timegm(&tm) - off;
	if (!gmtime_r(&t, &tm))
		return -1;
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return 0;
}

/* ---- fields, with their paths in the messages ---- */

static int S_fail(char **why, const char *prefix, const char *key, const char *what)
{
	*why = hb_sprintf("%s%s: %s", prefix, key, what);
	return -1;
}

/* A string; need: required (else absent and null give NULL). Borrowed from obj. */
static int S_str(const char **out, char **why, json_t *obj, const char *prefix, const char *key,
	int need)
{
	json_t *v = json_object_get(obj, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return need ? S_fail(why, prefix, key, v ? "expected a string, got null" : "missing") : 0;
	if (!json_is_string(v))
		return S_fail(why, prefix, key, "expected a string");
	*out = json_string_value(v);
	return 0;
}

/* An integer of 0 or more (-1 when absent or null and not needed); digits: a string of digits
 * counts too, as the harness writes its driver's META values and sysfs readings. */
static int S_count(long long *out, char **why, json_t *obj, const char *prefix, const char *key,
	int need, int digits)
{
	json_t *v = json_object_get(obj, key);
	*out = -1;
	if (!v || json_is_null(v))
		return need ? S_fail(why, prefix, key, v ? "expected an integer, got null" : "missing") : 0;
	if (digits && json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		unsigned long long x;
		errno = 0;
		x = isdigit((unsigned char)s[0]) ? strtoull(s, &end, 10) : 0;
		if (!isdigit((unsigned char)s[0]) || *end || errno || x > LLONG_MAX)
			return S_fail(why, prefix, key, "expected a number");
		*out = (long long)x;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return S_fail(why, prefix, key, "expected an integer of 0 or more");
	*out = (long long)json_integer_value(v);
	return 0;
}

static int S_object(json_t **out, char **why, json_t *obj, const char *prefix, const char *key)
{
	json_t *v = json_object_get(obj, key);
	*out = v;
	if (!json_is_object(v))
		return S_fail(why, prefix, key, v ? "expected an object" : "missing");
	return 0;
}

static int S_array(json_t **out, char **why, json_t *obj, const char *prefix, const char *key,
	int nonempty)
{
	json_t *v = json_object_get(obj, key);
	*out = v;
	if (!json_is_array(v))
		return S_fail(why, prefix, key, v ? "expected an array" : "missing");
	if (nonempty && json_array_size(v) == 0)
		return S_fail(why, prefix, key, "expected at least one entry");
	return 0;
}

/* The harness's environment object: every value this import reads has the type it needs. */
static int S_environment(long long *cpu, char **why, json_t *env)
{
	static const char *strings[] = { "hostname", "architecture", "cpu_model", "machine", "os",
		"kernel", "compiler", "cmake", "cpufreq_governor", "cpufreq_driver", "cpufreq_boost",
		"intel_pstate_no_turbo", "smt_control", NULL };
	static const char *numbers[] = { "memory_total_kib", "cpufreq_min_khz", "cpufreq_max_khz",
		"cpufreq_avg_khz", "core_clock_hz", NULL };
	json_t *virt = json_object_get(env, "virtualized");
	const char *s;
	long long n;
	size_t i;

	for (i = 0; strings[i]; i++)
		if (S_str(&s, why, env, "environment.", strings[i], 0) != 0)
			return -1;
	for (i = 0; numbers[i]; i++)
		if (S_count(&n, why, env, "environment.", numbers[i], 0, 1) != 0)
			return -1;
	if (virt && !json_is_null(virt) && !json_is_boolean(virt))
		return S_fail(why, "environment.", "virtualized", "expected true or false");
	return S_count(cpu, why, env, "environment.", "cpu_number", 1, 1);
}

/* The record's trials as ours: measurements -> iterations, cycles, seconds -> ns. */
static int S_trials(json_t **out, char **why, json_t *trials, unsigned long long *calls,
	unsigned long long *cycles, int *all_counted)
{
	json_t *t;
	size_t i;

	*out = json_array();
	*calls = *cycles = 0;
	*all_counted = 1;
	json_array_foreach(trials, i, t) {
		char prefix[48];
		long long m, c;
		json_t *sec = json_object_get(t, "seconds");
		double ns;
		snprintf(prefix, sizeof(prefix), "trials[%zu].", i);
		if (!json_is_object(t)) {
			snprintf(prefix, sizeof(prefix), "trials[%zu]", i);
			return S_fail(why, prefix, "", "expected an object");
		}
		if (S_count(&m, why, t, prefix, "measurements", 1, 0) != 0 ||
			S_count(&c, why, t, prefix, "cycles", 1, 0) != 0)
			return -1;
		if (m == 0)
			return S_fail(why, prefix, "measurements", "a trial without calls");
		if (!json_is_number(sec))
			return S_fail(why, prefix, "seconds", sec ? "expected a number" : "missing");
		ns = round(json_number_value(sec) * 1e9);
		if (!(ns >= 1) || ns > 9e18)
			return S_fail(why, prefix, "seconds", "expected a time above 0");
		json_array_append_new(*out, json_pack("{s:I, s:I, s:I}", "iterations", (json_int_t)m,
			"cycles", (json_int_t)c, "ns", (json_int_t)ns));
		*calls += (unsigned long long)m;
		*cycles += (unsigned long long)c;
		*all_counted &= c > 0;
	}
	return 0;
}

/* The harness's figures agree with its trials: the figures on our pages are those it printed. */
static int S_check_figures(char **why, json_t *rec, unsigned long long calls,
	unsigned long long cycles, int all_counted)
{
	json_t *mc = json_object_get(rec, "mean_cycles");
	long long n;
	if (S_count(&n, why, rec, "", "measurements", 0, 0) != 0)
		return -1;
	if (n >= 0 && (unsigned long long)n != calls) {
		*why = hb_sprintf("measurements: %lld contradicts the trials (%llu measurements in all)",
			n, calls);
		return -1;
	}
	if (mc && !json_is_null(mc) && !json_is_number(mc))
		return S_fail(why, "", "mean_cycles", "expected a number");
	if (json_is_number(mc) && all_counted) {
		double want = (double)cycles / (double)calls, got = json_number_value(mc);
		if (fabs(got - want) > 1e-9 * fmax(fabs(want), 1)) {
			*why = hb_sprintf("mean_cycles: %.10g contradicts the trials (cycles / measurements = "
				"%.10g)", got, want);
			return -1;
		}
	}
	return 0;
}

/* The build.json entry of <id>/<label>, or NULL. */
static json_t *S_build_entry(const hb_imp_ctx *c, const char *label)
{
	char *key = hb_sprintf("%s/%s", c->id, label);
	json_t *e = c->build ? json_object_get(c->build, key) : NULL;
	free(key);
	return json_is_object(e) ? e : NULL;
}

/* Our names of a library (instance and impl owned from here on). */
static int S_names(char **why, hb_imp_names *n, char *instance, char *impl)
{
	n->instance = instance;
	n->impl = impl;
	n->stem = strcmp(impl, "reference") == 0 ? hb_strdup(instance) :
		hb_sprintf("%s.%s", instance, impl);
	if (hb_imp_name_ok(n->stem))
		return 0;
	*why = hb_sprintf("instance and variant: \"%s\" cannot name a file", n->stem);
	return -1;
}

static void S_names_clear(hb_imp_names *n)
{
	free(n->instance);
	free(n->impl);
	free(n->stem);
}

/* Status of a record that is not complete: ours, with the harness's words as detail. */
static json_t *S_failure(const char **status, json_t *rec, json_t *procs)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	json_t *p;
	size_t i;

	*status = "error";
	json_array_foreach(procs, i, p) {
		const char *ps = json_string_value(json_object_get(p, "status"));
		json_t *code = json_object_get(p, "exit_code");
		if (!ps || strcmp(ps, "complete") == 0)
			continue;
		if (strcmp(ps, "hard_timeout") == 0)
			*status = "timeout";
		else if (json_is_integer(code) && json_integer_value(code) < 0)
			*status = "crash"; /* Python's return code of a child a signal killed */
		return json_sprintf("ngcc-harness status \"%s\": process %zu of %zu ended \"%s\"%s", st,
			i + 1, json_array_size(procs), ps, json_is_integer(code) ?
			(json_integer_value(code) < 0 ? " (killed by a signal)" : " (exit code ≠ 0)") : "");
	}
	return json_sprintf("ngcc-harness status \"%s\"", st);
}

/* cur_khz: the average clock the kernel measured over the record (cpufreq_avg_khz, arm64 AMU). */
static json_t *S_khz(json_t *env)
{
	const char *s = json_string_value(json_object_get(env, "cpufreq_avg_khz"));
	return s ? json_integer(strtoll(s, NULL, 10)) : json_null();
}

/* The converted record in the order a campaign writes one; the caller sets what follows. */
static json_t *S_convert(const hb_imp_record *r, const hb_imp_ctx *c, json_t *j, const char *lib,
	const char *lib_sha, const char *flags, json_t *cmd, const char *cflags)
{
	json_t *rec = json_object(), *env = json_object();
	const char *kat = json_string_value(json_object_get(j, "kat"));
	json_t *load0 = json_object_get(j, "load_average_start");
	json_t *load1 = json_object_get(j, "load_average_end");

	json_object_set_new(rec, "schema", json_string("hashbench.record/1"));
	json_object_set_new(rec, "system", json_string(c->system));
	json_object_set_new(rec, "algorithm", json_string(c->id));
	json_object_set_new(rec, "instance", json_string(r->n.instance));
	json_object_set_new(rec, "implementation", json_string(r->n.impl));
	json_object_set_new(rec, "operation", json_sprintf("hash_%llu", r->bytes));
	json_object_set_new(rec, "message_bytes", json_integer((json_int_t)r->bytes));
	json_object_set_new(rec, "output_bytes", json_null());
	json_object_set_new(rec, "status", json_null());
	json_object_set_new(rec, "kat", hb_json_str_or_null(kat));
	json_object_set_new(rec, "profile", json_string("guide"));
	json_object_set(rec, "command", json_is_array(cmd) ? cmd : json_null());
	json_object_set_new(rec, "build", json_pack("{s:s, s:s, s:n, s:o, s:n, s:s, s:s}",
		"flags", flags, "profile", strcmp(flags, "guide") == 0 ? "reference" :
		strcmp(flags, "guide-performance") == 0 ? "performance" : flags, "cc",
		"cflags", hb_json_str_or_null(cflags), "command", "library", lib,
		"library_sha256", lib_sha));
	json_object_set_new(env, "cpu", json_integer((json_int_t)r->cpu));
	json_object_set_new(env, "counter", json_string(r->counter_yes ? "perf-cycles" : "none"));
	json_object_set_new(env, "governor", hb_json_str_or_null(json_string_value(
		json_object_get(r->environment, "cpufreq_governor"))));
	json_object_set_new(env, "cur_khz", S_khz(r->environment));
	json_object_set_new(env, "cur_khz_after", json_null());
	json_object_set(env, "load_before", json_is_array(load0) ? load0 : json_null());
	json_object_set(env, "load_after", json_is_array(load1) ? load1 : json_null());
	json_object_set_new(env, "started", json_string(r->started));
	json_object_set_new(env, "finished", json_string(r->finished));
	json_object_set_new(env, "timing_scope", hb_json_str_or_null(json_string_value(
		json_object_get(j, "timing_scope"))));
	json_object_set_new(rec, "environment", env);
	return rec;
}

static int S_record(hb_imp_record *r, char **why, const hb_imp_ctx *c, json_t *j)
{
	const char *status, *cand, *label, *op, *inst, *variant, *flags, *kat, *lib, *lib_sha;
	const char *start, *end, *cflags = NULL, *yes = NULL, *kat_log, *kat_log_sha;
	json_t *env, *procs, *p0 = NULL, *meta = NULL, *cmd = json_null(), *trials = NULL, *t;
	json_t *schema = json_object_get(j, "schema"), *out_trials = NULL, *detail = NULL, *entry;
	long long bytes, out_bytes = -1, base = -1, peak = -1, elf = -1;
	unsigned long long calls = 0, cycles = 0;
	int counted = 0;
	size_t i;
	char *want;

	if (!schema)
		return S_fail(why, "", "schema", "missing");
	if (!json_is_integer(schema) || json_integer_value(schema) != 2) {
		char *v = json_dumps(schema, JSON_ENCODE_ANY | JSON_COMPACT);
		*why = hb_sprintf("schema: unknown version %.40s (this hashbench reads the harness's "
			"schema 2)", v ? v : "?");
		free(v);
		return -1;
	}
	if (S_str(&status, why, j, "", "status", 1) || S_str(&cand, why, j, "", "candidate", 1) ||
		S_str(&label, why, j, "", "label", 1) || S_str(&op, why, j, "", "operation", 1))
		return -1;
	if (strcmp(cand, c->id) != 0) {
		*why = hb_sprintf("candidate: \"%s\" contradicts the folder records/%s", cand, c->id);
		return -1;
	}
	if (!hb_imp_name_ok(label))
		return S_fail(why, "", "label", "cannot name a file");
	if (strcmp(op, "hash") != 0) {
		*why = hb_sprintf("operation \"%s\", not hash", op);
		return 1;
	}
	if (S_count(&bytes, why, j, "", "input_bytes", 1, 0) != 0)
		return -1;
	want = hb_sprintf("%s__hash_%lld.json", label, bytes);
	if (strcmp(want, c->file) != 0 || bytes == 0) {
		*why = hb_sprintf("label, input_bytes: \"%s\" and %lld contradict the file's name", label,
			bytes);
		free(want);
		return -1;
	}
	free(want);
	if (S_str(&inst, why, j, "", "instance", 0) || S_str(&variant, why, j, "", "variant", 1) ||
		S_str(&flags, why, j, "", "flags", 1) || S_str(&kat, why, j, "", "kat", 0) ||
		S_str(&lib, why, j, "", "library", 1) || S_str(&lib_sha, why, j, "", "library_sha256", 1) ||
		S_str(&kat_log, why, j, "", "kat_log", 0) ||
		S_str(&kat_log_sha, why, j, "", "kat_log_sha256", 0) ||
		S_str(&start, why, j, "", "started_utc", 1) || S_str(&end, why, j, "", "ended_utc", 1))
		return -1;
	r->kat_log = kat_log ? hb_strdup(kat_log) : NULL;
	r->kat_log_sha256 = kat_log_sha ? hb_strdup(kat_log_sha) : NULL;
	if (hb_imp_utc(r->started, start) != 0)
		return S_fail(why, "", "started_utc", "expected a time such as 2026-09-28T19:34:05+00:00");
	if (hb_imp_utc(r->finished, end) != 0)
		return S_fail(why, "", "ended_utc", "expected a time such as 2026-09-28T19:34:05+00:00");
	if (S_object(&env, why, j, "", "environment") || S_environment(&r->cpu, why, env) ||
		S_array(&procs, why, j, "", "processes", 0))
		return -1;
	json_array_foreach(procs, i, p0) {
		char prefix[48];
		const char *ps;
		snprintf(prefix, sizeof(prefix), "processes[%zu].", i);
		if (!json_is_object(p0))
			return S_fail(why, prefix, "", "expected an object");
		if (S_str(&ps, why, p0, prefix, "status", 1) != 0)
			return -1;
	}
	r->complete = strcmp(status, "complete") == 0;
	p0 = json_array_get(procs, 0);
	if (r->complete) {
		if (S_array(&procs, why, j, "", "processes", 1) ||
			S_object(&meta, why, p0, "processes[0].", "meta") ||
			S_array(&cmd, why, p0, "processes[0].", "command", 1))
			return -1;
		json_array_foreach(cmd, i, t)
			if (!json_is_string(t)) {
				*why = hb_sprintf("processes[0].command[%zu]: expected a string", i);
				return -1;
			}
		if (S_str(&yes, why, meta, "processes[0].meta.", "cpu_cycles_available", 0) ||
			S_str(&cflags, why, j, "", "build_flags", 0) || (!cflags &&
				S_str(&cflags, why, meta, "processes[0].meta.", "build_flags", 1)) ||
			S_count(&base, why, j, "", "baseline_rss_bytes", 1, 0) ||
			S_count(&peak, why, j, "", "peak_rss_bytes", 1, 0) ||
			S_array(&trials, why, j, "", "trials", 1) ||
			S_trials(&out_trials, why, trials, &calls, &cycles, &counted) ||
			S_check_figures(why, j, calls, cycles, counted))
			goto fail;
	} else {
		out_trials = json_array();
		detail = S_failure(&status, j, procs);
		if (json_is_object(json_object_get(p0, "meta")))
			meta = json_object_get(p0, "meta");
		if (json_is_array(json_object_get(p0, "command")))
			cmd = json_object_get(p0, "command");
		if ((meta && S_str(&cflags, why, meta, "processes[0].meta.", "build_flags", 0)) ||
			S_count(&base, why, j, "", "baseline_rss_bytes", 0, 0) ||
			S_count(&peak, why, j, "", "peak_rss_bytes", 0, 0))
			goto fail;
	}
	r->counter_yes = yes && strcmp(yes, "yes") == 0;
	if (S_count(&out_bytes, why, json_object_get(j, "sizes"), "sizes.", "digest_bytes", 0, 0) ||
		(out_bytes < 0 && meta &&
			S_count(&out_bytes, why, meta, "processes[0].meta.", "digest_bytes", 0, 1)))
		goto fail;
	if ((entry = S_build_entry(c, label)) != NULL) {
		char *prefix = hb_sprintf("build.json: instances.%s/%s.", c->id, label);
		int bad = S_count(&elf, why, entry, prefix, "elf_load_bytes", 0, 0);
		free(prefix);
		if (bad)
			goto fail;
	}
	if (S_count(&r->plan_trials, why, json_object_get(j, "plan"), "plan.", "trials", 0, 0))
		goto fail;
	r->cflags = cflags ? hb_strdup(cflags) : NULL;
	r->bytes = (unsigned long long)bytes;
	if (S_names(why, &r->n, hb_strdup(inst ? inst : label), hb_strdup(variant)) != 0)
		goto fail;
	r->environment = json_incref(env);
	r->record = S_convert(r, c, j, lib, lib_sha, flags, cmd, cflags);
	json_object_set_new(r->record, "output_bytes", hb_json_int_or_null(out_bytes));
	json_object_set_new(r->record, "status", json_string(r->complete ? "ok" : status));
	if (detail)
		json_object_set_new(r->record, "detail", detail);
	json_object_set_new(r->record, "trials", out_trials);
	json_object_set_new(r->record, "disturbed", json_false());
	json_object_set_new(r->record, "retries", json_array());
	/* RSS: the record's own baseline_rss_bytes and peak_rss_bytes, which the harness sets to the
	 * highest of its processes' values and prints (bytes // 1024) on its pages */
	json_object_set_new(r->record, "resources", json_pack("{s:o, s:o, s:o}", "static_bytes",
		hb_json_int_or_null(elf), "baseline_rss_kib", hb_json_int_or_null(base < 0 ? -1 :
		base / 1024), "peak_rss_kib", hb_json_int_or_null(peak < 0 ? -1 : peak / 1024)));
	return 0;
fail:
	json_decref(out_trials);
	json_decref(detail);
	return -1;
}

int hb_imp_record_read(hb_imp_record *out, char **why, const hb_imp_ctx *c, const char *text,
	size_t len)
{
	json_error_t err;
	json_t *j;
	int rc;

	memset(out, 0, sizeof(*out));
	out->cpu = out->plan_trials = -1;
	*why = NULL;
	if (!(j = json_loadb(text, len, 0, &err))) {
		*why = hb_sprintf("malformed JSON at line %d, column %d: %s", err.line, err.column,
			err.text);
		return -1;
	}
	rc = json_is_object(j) ? S_record(out, why, c, j) :
		S_fail(why, "", "(the whole file)", "expected a JSON object");
	json_decref(j);
	return rc;
}

void hb_imp_record_clear(hb_imp_record *r)
{
	json_decref(r->record);
	json_decref(r->environment);
	S_names_clear(&r->n);
	free(r->cflags);
	free(r->kat_log);
	free(r->kat_log_sha256);
	memset(r, 0, sizeof(*r));
}

/* ---- KAT logs ---- */

/* What a log's lines say; the strings point into the (modified) copy of its text. */
typedef struct {
	const char *header[8];  /* the values of S_keys, NULL when absent */
	const char *result[3];  /* RESULT <id> <label> <verdict…> */
	json_t *files;          /* {name, hex, form} of each manifest line */
	json_t *wrote;          /* name -> bytes, of each "wrote" line */
} S_log;

static const char *S_keys[] = { "id", "algorithm", "instance", "variant", "build_flags",
	"digest_len", NULL };

/* One line (trailing blanks cut): 0, or -1 with *why. */
static int S_log_line(S_log *g, char **why, char *line, int lineno)
{
	char *key_end = line + strspn(line, "abcdefghijklmnopqrstuvwxyz_"), *eq, *w[4] = { NULL };
	char *p = line;
	size_t k, n = 0;

	eq = key_end + strspn(key_end, " ");
	if (key_end > line && *eq == '=' && (eq[1] == ' ' || !eq[1])) {
		for (k = 0; S_keys[k]; k++)
			if (!g->header[k] && (size_t)(key_end - line) == strlen(S_keys[k]) &&
				strncmp(line, S_keys[k], strlen(S_keys[k])) == 0)
				g->header[k] = eq + 1 + strspn(eq + 1, " ");
		return 0;
	}
	/* the other lines are words: three, then the rest (manifest, wrote, RESULT, timing, …) */
	while (n < 3 && p && *(p += strspn(p, " "))) {
		w[n++] = p;
		p += strcspn(p, " ");
		p = *p ? (*p = 0, p + 1) : NULL;
	}
	w[3] = p ? p + strspn(p, " ") : "";
	if (n == 3 && strcmp(w[0], "RESULT") == 0) {
		memcpy(g->result, w + 1, sizeof(g->result));
	} else if (strcmp(w[0] ? w[0] : "", "manifest") == 0) {
		if (n < 3 || strlen(w[1]) != 64 || strspn(w[1], "0123456789abcdef") != 64 ||
			!hb_imp_name_ok(w[3])) {
			*why = hb_sprintf("line %d: expected \"manifest <sha256> <form> <file>\"", lineno);
			return -1;
		}
		json_array_append_new(g->files, json_pack("{s:s, s:s, s:s}", "name", w[3], "hex", w[1],
			"form", w[2]));
	} else if (n == 3 && strcmp(w[0], "wrote") == 0 && strchr(w[1], '/')) {
		json_object_set_new(g->wrote, strrchr(w[1], '/') + 1,
			json_integer(strtoll(w[2] + (w[2][0] == '('), NULL, 10)));
	}
	return 0;
}

/* KAT_<set>_<instance>.txt: the bit of its set. */
static unsigned S_set_bit(const char *name)
{
	int s;
	for (s = 0; s < HB_KAT_NSETS; s++) {
		const char *set = hb_kat_set_name(s);
		if (strncmp(name, "KAT_", 4) == 0 && strncasecmp(name + 4, set, strlen(set)) == 0 &&
			name[4 + strlen(set)] == '_')
			return 1u << s;
	}
	return 0;
}

/* The log's library: its RESULT line names the folder's algorithm and the log's own label (its
 * file name); instance and variant from build.json, else from the log's header. */
static int S_kat_names(hb_imp_kat *k, char **why, const hb_imp_ctx *c, S_log *g,
	const char *label, json_t *entry)
{
	const char *variant = g->header[3], *inst = json_string_value(json_object_get(entry,
		"instance"));
	char *impl;
	size_t i;

	if (!g->result[0])
		return S_fail(why, "", "RESULT", "missing (the log has no verdict)");
	if (strcmp(g->result[0], c->id) != 0 || strcmp(g->result[1], label) != 0) {
		*why = hb_sprintf("RESULT: names %s %s, not %s %s", g->result[0], g->result[1], c->id,
			label);
		return -1;
	}
	if (g->header[0] && strcmp(g->header[0], c->id) != 0) {
		*why = hb_sprintf("id: \"%s\" contradicts the folder kat/%s", g->header[0], c->id);
		return -1;
	}
	if (json_is_string(json_object_get(entry, "variant")))
		impl = hb_strdup(json_string_value(json_object_get(entry, "variant")));
	else if (!variant || strcmp(variant, "Reference_Implementation") == 0)
		impl = hb_strdup("reference");
	else
		impl = hb_sprintf("%.*s", (int)strcspn(variant, "_"), variant);
	for (i = 0; impl[i]; i++)
		impl[i] = (char)tolower((unsigned char)impl[i]);
	return S_names(why, &k->n, hb_strdup(inst ? inst : g->header[2] ? g->header[2] : label),
		impl);
}

static int S_kat(hb_imp_kat *k, char **why, const hb_imp_ctx *c, S_log *g)
{
	char *label = hb_sprintf("%.*s", (int)(strlen(c->file) - 4), c->file);
	json_t *entry = S_build_entry(c, label), *f, *files;
	const char *verdict = g->result[2];
	FILE *man;
	size_t mlen, i;
	unsigned mask = 0;
	int pass;

	if (S_kat_names(k, why, c, g, label, entry) != 0) {
		free(label);
		return -1;
	}
	k->algorithm = g->header[1] && *g->header[1] ? hb_strdup(g->header[1]) : NULL;
	pass = strncmp(verdict, "PASS", 4) == 0 && (!verdict[4] || verdict[4] == ' ');
	files = json_array();
	man = open_memstream(&k->manifest, &mlen);
	json_array_foreach(g->files, i, f) {
		const char *name = json_string_value(json_object_get(f, "name"));
		json_t *bytes = json_object_get(g->wrote, name);
		mask |= S_set_bit(name);
		fprintf(man, "%s  %s\n", json_string_value(json_object_get(f, "hex")), name);
		/* the log gives the sha256 of the submitted file's form it compared, not the bytes
		 * regenerated, nor the number of entries */
		json_array_append_new(files, json_pack("{s:s, s:n, s:O, s:n, s:s, s:o}", "name", name,
			"sha256", "expected_sha256", json_object_get(f, "hex"), "entries", "result",
			pass ? "PASS" : "UNKNOWN", "detail", bytes ? json_sprintf("manifest form %s; %lld "
			"bytes regenerated", json_string_value(json_object_get(f, "form")),
			(long long)json_integer_value(bytes)) : json_sprintf("manifest form %s",
			json_string_value(json_object_get(f, "form")))));
	}
	fclose(man);
	k->summary = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:I, s:s, s:s, s:o}",
		"schema", "hashbench.kat/1", "instance", k->n.instance, "implementation", k->n.impl,
		"build_flags", json_is_string(json_object_get(entry, "flags")) ?
		json_string_value(json_object_get(entry, "flags")) : "guide",
		"cflags", hb_json_str_or_null(g->header[4]), "library_sha256",
		hb_json_str_or_null(json_string_value(json_object_get(entry, "library_sha256"))),
		"files", files, "sets_mask", (json_int_t)mask, "scope", "all",
		"result", pass ? "PASS" : strncmp(verdict, "FAIL", 4) == 0 ||
		strncmp(verdict, "MISMATCH", 8) == 0 ? "FAIL" : "ERROR",
		"detail", pass ? json_null() : json_sprintf("ngcc-harness: RESULT %s %s %s", c->id, label,
		verdict));
	free(label);
	return k->summary ? 0 : S_fail(why, "", "(log)", "cannot be summarised");
}

int hb_imp_kat_read(hb_imp_kat *out, char **why, const hb_imp_ctx *c, const char *text,
	size_t len)
{
	S_log g;
	char *copy, *line, *next;
	int lineno = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&g, 0, sizeof(g));
	*why = NULL;
	if (memchr(text, 0, len))
		return S_fail(why, "", "(the whole file)", "not a text file");
	copy = hb_strdup(text);
	g.files = json_array();
	g.wrote = json_object();
	for (line = copy; rc == 0 && line && *line; line = next) {
		size_t n;
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		n = strlen(line);
		while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
			line[--n] = 0;
		rc = S_log_line(&g, why, line, ++lineno);
	}
	if (rc == 0)
		rc = S_kat(out, why, c, &g);
	json_decref(g.files);
	json_decref(g.wrote);
	free(copy);
	return rc;
}

void hb_imp_kat_clear(hb_imp_kat *k)
{
	json_decref(k->summary);
	S_names_clear(&k->n);
	free(k->algorithm);
	free(k->manifest);
	memset(k, 0, sizeof(*k));
}
