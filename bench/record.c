/* record.c — one record: a message size's passes (passes.c) joined into its trials, headline
 * figure and retries, with its command, build, environment, sandbox, resources and the exact
 * memory of one call, written atomically. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

int hb_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* The interquartile range of the single-call samples as a percentage of their median. */
static double S_spread_pct(json_t *samples)
{
	size_t n = json_array_size(samples), i;
	uint64_t *v;
	double q1, q3, med;
	if (n < 4)
		return -1;
	v = malloc(n * sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)json_integer_value(json_array_get(samples, i));
	qsort(v, n, sizeof(*v), hb_cmp_u64);
	q1 = (double)v[n / 4];
	q3 = (double)v[(3 * n) / 4];
	med = (double)v[n / 2];
	free(v);
	return med > 0 ? (q3 - q1) / med * 100 : -1;
}

const char *hb_run_flags_label(const hb_instance *inst)
{
	if (inst->supercop)
		return "supercop";
	return inst->extra_cflags[0] || (inst->define_flags && inst->define_flags[0]) ?
		"guide+overrides" : "guide";
}

static json_t *S_strings(char *const *v)
{
	json_t *a = json_array();
	size_t i;
	for (i = 0; v && v[i]; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *hb_run_declared_json(const hb_instance *inst)
{
	if (!inst->defines || !inst->defines[0])
		return NULL;
	return json_pack("{s:o, s:o, s:o}", "defines", S_strings(inst->defines), "rewrites",
		S_strings(inst->rewrites), "define_flags", S_strings(inst->define_flags));
}

json_t *hb_run_build_json(const hb_build_result *b, const hb_instance *inst)
{
	json_t *j = json_object(), *declared = hb_run_declared_json(inst);
	json_object_set_new(j, "flags", json_string(hb_run_flags_label(inst)));
	json_object_set_new(j, "profile", json_string(b->profile));
	json_object_set_new(j, "cc", json_string(b->cc));
	json_object_set_new(j, "cflags", json_string(b->cflags));
	json_object_set_new(j, "command", json_string(b->command));
	json_object_set_new(j, "library", json_string(b->library));
	json_object_set_new(j, "library_sha256", json_string(b->library_sha256));
	if (declared) /* what algorithm.json's "instances" changed in the submission's headers */
		json_object_set_new(j, "declared", declared);
	return j;
}

/* The "supercop" object of a SUPERCOP implementation's records and KAT summary. */
json_t *hb_run_supercop_json(const hb_instance *inst, const hb_build_result *b)
{
	const hb_supercop_impl *sc = inst->supercop;
	json_t *j = json_object();
	json_object_set_new(j, "version", hb_json_str_or_null(sc->version));
	json_object_set_new(j, "operation", json_string(sc->operation));
	json_object_set_new(j, "primitive", json_string(sc->primitive));
	json_object_set_new(j, "path", json_string(sc->path));
	json_object_set_new(j, "implementors", hb_json_str_or_null(sc->implementors));
	json_object_set_new(j, "sources_sha256", json_string(sc->sources_sha256));
	if (b) {
		/* the setting as the tree's okcompilers names it, without the -fPIC hashbench adds */
		char *line = hb_sprintf("%s %s", b->cc, b->cflags);
		size_t n = strlen(line);
		if (n > 6 && strcmp(line + n - 6, " -fPIC") == 0)
			line[n - 6] = 0;
		json_object_set_new(j, "compiler", json_string(line));
		free(line);
	} else {
		json_object_set_new(j, "compiler", json_null());
	}
	return j;
}

/* ---- records ---- */

char *hb_run_record_path(const hb_run *r, const hb_instance *inst, unsigned long long bytes)
{
	char *stem = hb_instance_stem(inst);
	char *p = hb_sprintf("%s/records/%s/%s__hash_%llu.json", r->sysdir, inst->algorithm->id, stem,
		bytes);
	free(stem);
	return p;
}

/* A finished record is kept when its library, its profile and whether it was sandboxed are
 * unchanged (a record of an earlier version, without "sandbox", was not). */
int hb_run_record_reusable(const hb_run *r, const char *path, const hb_build_result *b)
{
	json_t *j = json_load_file(path, 0, NULL), *lib, *prof, *st;
	int sandboxed;
	int ok;
	if (!j)
		return 0;
	lib = json_object_get(json_object_get(j, "build"), "library_sha256");
	prof = json_object_get(j, "profile");
	st = json_object_get(j, "status");
	sandboxed = json_is_true(json_object_get(json_object_get(j, "sandbox"), "enabled"));
	ok = sandboxed == hb_sandbox_enabled() && json_is_string(lib) && strcmp(json_string_value(lib), b->library_sha256) == 0 &&
		json_is_string(prof) && strcmp(json_string_value(prof), r->prof->name) == 0 &&
		json_is_string(st) && json_is_array(json_object_get(j, "trials"));
	json_decref(j);
	return ok;
}

/* One call in a fresh driver (--mode memory): the stack, heap and mmap figures into res, or
 * null with the reason in resources.memory_detail. */
static void S_memory(hb_run *r, json_t *rec, json_t *res, hb_driver_cmd *drv,
	const hb_build_result *b, unsigned limit)
{
	static const char *const keys[] = { "stack_bytes", "heap_peak_bytes", "heap_allocations",
		"mmap_bytes", NULL };
	hb_child run;
	json_t *child = NULL, *m, *cmd;
	char *detail = NULL;
	const char *status;
	size_t i, n;

	memset(&run, 0, sizeof(run));
	for (n = 0; drv->argv[n]; n++)
		;
	drv->argv[n] = "--mode";
	drv->argv[n + 1] = "memory";
	drv->argv[n + 2] = NULL;
	for (n = 0; drv->run[n]; n++)
		;
	drv->run[n] = "--mode";
	drv->run[n + 1] = "memory";
	drv->run[n + 2] = NULL;
	status = hb_driver_run(&run, &child, &detail, drv, b->library, limit);
	m = json_object_get(child, "memory");
	for (i = 0; keys[i]; i++)
		json_object_set_new(res, keys[i], strcmp(status, "ok") == 0 &&
			json_is_integer(json_object_get(m, keys[i])) ?
			json_incref(json_object_get(m, keys[i])) : json_null());
	if (strcmp(status, "ok") != 0 || !json_is_object(m)) {
		json_object_set_new(res, "memory_detail", json_sprintf("%s%s%s", status,
			detail ? ": " : "", detail ? detail : ""));
		hb_note(r->o->progress, r->tty, "memory call: %s%s%s", status, detail ? ": " : "",
			detail ? detail : "");
	} else {
		cmd = json_array();
		json_array_append_new(cmd, json_string("hashbench-measure"));
		for (i = 1; drv->argv[i]; i++)
			json_array_append_new(cmd, json_string(drv->argv[i]));
		json_object_set_new(rec, "memory_call", json_pack("{s:o, s:O, s:O, s:O, s:O}",
			"command", cmd, "stack_driver_bytes", json_object_get(m, "stack_driver_bytes"),
			"stack_region_bytes", json_object_get(m, "stack_region_bytes"), "heap_untracked",
			json_object_get(m, "heap_untracked"), "redirected", json_object_get(m, "redirected")));
	}
	json_decref(child);
	hb_child_clear(&run);
	free(detail);
}

/* A disturbed pass, kept as evidence among the record's retries. */
static json_t *S_retry(json_t *e)
{
	json_t *j = json_pack("{s:O, s:O, s:O, s:O, s:O, s:O}", "reason", json_object_get(e, "reason"),
		"started", json_object_get(e, "started"), "finished", json_object_get(e, "finished"),
		"trials", json_object_get(e, "trials"), "load_before", json_object_get(e, "load_before"),
		"load_after", json_object_get(e, "load_after"));
	if (json_object_get(e, "sentinel"))
		json_object_set(j, "sentinel", json_object_get(e, "sentinel"));
	json_object_set(j, "pass", json_object_get(e, "pass"));
	return j;
}

/* A pass as the record lists it: what it was, without its blocks and samples. */
static json_t *S_pass_summary(json_t *e)
{
	static const char *const keys[] = { "pass", "cpu", "started", "finished", "calm", "reason",
		"min_cycles_per_call", "involuntary_switches", "steal_ms", "sentinel", "samples", NULL };
	json_t *j = json_object();
	size_t i;
	for (i = 0; keys[i]; i++)
		if (json_object_get(e, keys[i]))
			json_object_set(j, keys[i], json_object_get(e, keys[i]));
	json_object_set_new(j, "blocks", json_integer((json_int_t)json_array_size(json_object_get(e,
		"trials"))));
	json_object_set(j, "calls_per_block", json_object_get(json_object_get(e, "calibration"),
		"calls_per_round"));
	return j;
}

/* A member of a pass entry (a new reference), null when it has none. */
static json_t *S_get(json_t *e, const char *key)
{
	json_t *v = e ? json_object_get(e, key) : NULL;
	return v ? json_incref(v) : json_null();
}

static void S_append_all(json_t *to, json_t *from)
{
	size_t i;
	json_t *x;
	json_array_foreach(from, i, x)
		json_array_append(to, x);
}

/* The record's environment: the CPU, counter and clock of its first figure's pass (first), the
 * clock and load after its last (last); both NULL for a record without a pass. */
static json_t *S_environment(const hb_run *r, json_t *first, json_t *last)
{
	json_t *env = json_object();
	json_object_set_new(env, "cpu", first ? json_incref(json_object_get(first, "cpu")) :
		json_integer(r->cpu));
	json_object_set_new(env, "counter", json_string(hb_counter_name(&r->counter)));
	json_object_set_new(env, "governor", hb_json_str_or_null(r->env->governor));
	json_object_set_new(env, "cur_khz", S_get(first, "cur_khz"));
	json_object_set_new(env, "cur_khz_after", S_get(last, "cur_khz_after"));
	json_object_set_new(env, "load_before", S_get(first, "load_before"));
	json_object_set_new(env, "load_after", S_get(last, "load_after"));
	/* how the timing driver was started: "execveat" from the descriptor opened at start, or
	 * "/proc/self/fd" (the same open file) where execveat is refused (docs/arm.md) */
	if (first && json_object_get(first, "driver_start"))
		json_object_set(env, "driver_start", json_object_get(first, "driver_start"));
	if (first && json_object_get(first, "started")) {
		json_object_set(env, "started", json_object_get(first, "started"));
		json_object_set(env, "finished", json_object_get(last, "finished"));
	} else {
		char now[32];
		hb_utc_now(now);
		json_object_set_new(env, "started", json_string(now));
		json_object_set_new(env, "finished", json_string(now));
	}
	return env;
}

/* The single calls of the fastest pass, into samples: the spread when the machine was at its
 * best. */
static void S_fastest_samples(json_t *samples, json_t *entries, json_t *headline)
{
	size_t i;
	json_t *e;
	json_array_foreach(entries, i, e)
		if (json_number_value(json_object_get(e, "min_cycles_per_call")) ==
			json_number_value(json_object_get(headline, "cycles_per_call"))) {
			S_append_all(samples, json_object_get(e, "samples"));
			break;
		}
}

const char *hb_run_record_write(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *kat_result, unsigned long long bytes, const hb_elf_sizes *sizes, json_t *entries,
	json_t *paired)
{
	hb_driver_setup setup = hb_run_driver(r);
	hb_driver_cmd drv;
	char *path = hb_run_record_path(r, inst, bytes), *dir, num[32];
	json_t *rec, *res, *e, *failed = NULL, *first = NULL, *last = NULL, *headline = NULL;
	json_t *trials = json_array(), *samples = json_array(), *retries = json_array(),
		*passes = json_array();
	const char *status = "ok", *detail = NULL;
	unsigned limit = r->o->time_limit_s ? r->o->time_limit_s : r->prof->time_limit_s;
	const char *state = "narrow";
	int disturbed = 0;
	size_t i;

	json_array_foreach(entries, i, e)
		if (!failed && strcmp(json_string_value(json_object_get(e, "status")), "ok") != 0)
			failed = e;
	if (failed) {
		status = json_string_value(json_object_get(failed, "status"));
		detail = json_string_value(json_object_get(failed, "detail"));
		first = failed;
	} else if (json_array_size(entries) == 0) {
		status = "error";
		detail = "no pass measured this size";
	} else if (hb_pass_headline(&headline, &state, entries, bytes, r->target_pct,
			&r->floor) != 0) {
		status = "error";
		detail = hb_error_last();
	} else {
		size_t ncalm = 0;
		json_array_foreach(entries, i, e)
			ncalm += json_is_true(json_object_get(e, "calm"));
		json_array_foreach(entries, i, e) {
			int calm = json_is_true(json_object_get(e, "calm"));
			json_array_append_new(passes, S_pass_summary(e));
			if (!calm)
				json_array_append_new(retries, S_retry(e));
			if (!calm && ncalm > 0)
				continue; /* kept as evidence, not in the figures */
			if (!first)
				first = e;
			last = e;
			S_append_all(trials, json_object_get(e, "trials"));
		}
		S_fastest_samples(samples, entries, headline);
	}
	if (!last)
		last = first;

	rec = json_object();
	json_object_set_new(rec, "schema", json_string("hashbench.record/1"));
	json_object_set_new(rec, "system", json_string(r->o->system));
	json_object_set_new(rec, "algorithm", json_string(inst->algorithm->id));
	json_object_set_new(rec, "instance", json_string(inst->name));
	json_object_set_new(rec, "implementation", json_string(inst->impl));
	json_object_set_new(rec, "operation", json_sprintf("hash_%llu", bytes));
	json_object_set_new(rec, "message_bytes", json_integer((json_int_t)bytes));
	json_object_set_new(rec, "output_bytes", json_integer((inst->digest_bits + 7) / 8));
	json_object_set_new(rec, "status", json_string(status));
	if (detail)
		json_object_set_new(rec, "detail", json_string(detail));
	json_object_set_new(rec, "kat", json_string(kat_result));
	json_object_set_new(rec, "profile", json_string(r->prof->name));
	json_object_set_new(rec, "command", first && json_object_get(first, "command") ?
		json_incref(json_object_get(first, "command")) : json_array());
	json_object_set_new(rec, "build", hb_run_build_json(b, inst));
	if (inst->supercop)
		json_object_set_new(rec, "supercop", hb_run_supercop_json(inst, b));
	json_object_set_new(rec, "environment", S_environment(r, first, last));
	json_object_set_new(rec, "sandbox", hb_sandbox_json(limit));
	if (first && json_object_get(first, "output")) {
		/* what the library printed: text in the record, never parsed */
		json_object_set(rec, "output", json_object_get(first, "output"));
		json_object_set(rec, "output_truncated", json_object_get(first, "output_truncated"));
	}
	json_object_set_new(rec, "input", json_pack("{s:s, s:I}", "generator", "splitmix64",
		"seed", first && json_is_integer(json_object_get(first, "message_seed")) ?
		json_integer_value(json_object_get(first, "message_seed")) : (json_int_t)0));
	if (first && json_object_get(first, "calibration"))
		json_object_set(rec, "calibration", json_object_get(first, "calibration"));
	json_object_set_new(rec, "trials", strcmp(status, "ok") == 0 ? json_incref(trials) :
		json_array());
	if (strcmp(status, "ok") == 0) {
		double spread = S_spread_pct(samples);
		json_object_set(rec, "samples", samples);
		if (spread > r->spread_limit) {
			r->sum.unstable++;
			hb_note(r->o->progress, r->tty, "%s (%s) hash_%llu: spread %.1f %% of the median, "
				"above %.1f %%", inst->name, inst->impl, bytes, spread, r->spread_limit);
		}
		disturbed = strcmp(state, "unconfirmed") == 0;
		r->sum.wide += strcmp(state, "wide") == 0;
		json_array_append(r->half_widths, json_object_get(json_object_get(headline,
			"interval"), "half_width_pct"));
		if (paired)
			json_object_set(headline, "paired", paired);
		json_object_set_new(rec, "headline", headline);
		json_object_set(rec, "passes", passes);
		if (json_object_get(last, "sentinel"))
			json_object_set(rec, "sentinel", json_object_get(last, "sentinel"));
	}
	json_object_set_new(rec, "disturbed", json_boolean(strcmp(status, "ok") == 0 && disturbed));
	json_object_set_new(rec, "retries", strcmp(status, "ok") == 0 ? json_incref(retries) :
		json_array());
	if (strcmp(status, "ok") == 0 && json_array_size(retries))
		r->sum.remeasured++;
	if (strcmp(status, "ok") == 0 && disturbed)
		r->sum.disturbed++;
	res = json_object();
	json_object_set_new(res, "static_bytes", json_integer((json_int_t)sizes->total));
	json_object_set_new(res, "text_bytes", json_integer((json_int_t)sizes->text));
	json_object_set_new(res, "data_bytes", json_integer((json_int_t)sizes->data));
	if (strcmp(status, "ok") == 0) {
		json_t *cr = json_object_get(first, "resources");
		json_object_set(res, "baseline_rss_kib", json_object_get(cr, "baseline_rss_kib"));
		json_object_set(res, "peak_rss_kib", json_object_get(cr, "peak_rss_kib"));
		snprintf(num, sizeof(num), "%llu", bytes);
		hb_driver_cmd_init(&drv, &setup, b->library, num, NULL, 0, inst->digest_bits);
		S_memory(r, rec, res, &drv, b, limit);
	} else {
		json_object_set_new(res, "baseline_rss_kib", json_null());
		json_object_set_new(res, "peak_rss_kib", json_null());
	}
	json_object_set_new(rec, "resources", res);

	dir = hb_sprintf("%s/records/%s", r->sysdir, inst->algorithm->id);
	if (hb_mkdir_p(dir) != 0 || hb_json_write(path, rec) != 0) {
		hb_note(r->o->progress, r->tty, "%s", hb_error_last());
		status = "error";
	}
	if (strcmp(status, "ok") != 0)
		hb_note(r->o->progress, r->tty, "%s (%s) hash_%llu: %s%s%s", inst->name, inst->impl,
			bytes, detail && strncmp(detail, status, strlen(status)) == 0 ? "" : status,
			detail && strncmp(detail, status, strlen(status)) != 0 ? ": " : "",
			detail ? detail : "");
	/* status may point into rec or entries: the caller's copy is a static name */
	status = strcmp(status, "ok") == 0 ? "ok" : strcmp(status, "timeout") == 0 ? "timeout" :
		strcmp(status, "crash") == 0 ? "crash" : strcmp(status, "violation") == 0 ?
		"violation" : "error";
	json_decref(rec);
	json_decref(trials);
	json_decref(samples);
	json_decref(retries);
	json_decref(passes);
	free(dir);
	free(path);
	return status;
}
