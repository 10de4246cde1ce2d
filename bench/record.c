/* record.c — one record: the driver run on the timing CPU (measured again when a round was
 * disturbed), with its command, build, environment, sandbox and resources, written atomically. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "run.h"
#include "sandbox.h"

int hb_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

static long long S_cur_khz(const hb_run *r)
{
	char *path = hb_sprintf("%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
		strcmp(r->o->env_root, "/") == 0 ? "" : r->o->env_root, r->cpu);
	hb_buf buf;
	long long v = -1;
	if (hb_file_read_raw(&buf, path) == 0) {
		v = strtoll((char *)buf.data, NULL, 10);
		hb_buf_free(&buf);
	}
	free(path);
	return v > 0 ? v : -1;
}

static json_t *S_loadavg(void)
{
	hb_buf buf;
	double a = 0, b = 0, c = 0;
	json_t *j;
	if (hb_file_read_raw(&buf, "/proc/loadavg") != 0)
		return json_null();
	if (sscanf((char *)buf.data, "%lf %lf %lf", &a, &b, &c) != 3) {
		hb_buf_free(&buf);
		return json_null();
	}
	hb_buf_free(&buf);
	j = json_array();
	json_array_append_new(j, json_real(a));
	json_array_append_new(j, json_real(b));
	json_array_append_new(j, json_real(c));
	return j;
}

/* Was a round far from the others? Fills why and returns 1 when one deviates more than
 * DISTURBED_PCT from the median round (cycles per call). */
static int S_disturbed(char *why, size_t n, json_t *trials)
{
	double per[64], sorted[64], median, worst = 0;
	size_t i, k = json_array_size(trials), at = 0;
	if (k < 3 || k > 64)
		return 0;
	for (i = 0; i < k; i++) {
		json_t *t = json_array_get(trials, i);
		double it = (double)json_integer_value(json_object_get(t, "iterations"));
		per[i] = it > 0 ? (double)json_integer_value(json_object_get(t, "cycles")) / it : 0;
		sorted[i] = per[i];
	}
	for (i = 1; i < k; i++) {
		size_t m;
		for (m = i; m > 0 && sorted[m - 1] > sorted[m]; m--) {
			double t = sorted[m];
			sorted[m] = sorted[m - 1];
			sorted[m - 1] = t;
		}
	}
	median = k % 2 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
	if (median <= 0)
		return 0;
	for (i = 0; i < k; i++) {
		double dev = (per[i] - median) / median * 100;
		if (dev < 0)
			dev = -dev;
		if (dev > worst) {
			worst = dev;
			at = i;
		}
	}
	if (worst <= DISTURBED_PCT)
		return 0;
	snprintf(why, n, "round %zu was %.1f %% away from the median round", at + 1, worst);
	return 1;
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

/* The driver's setup for this campaign's records. */
hb_driver_setup hb_run_driver(const hb_run *r)
{
	hb_driver_setup d = { r->o->measure_exe, hb_counter_name(&r->counter), r->cpu,
		r->prof->rounds, r->prof->round_ms, r->prof->warmup_ms, r->prof->max_calls };
	return d;
}

/* The sentinel readings of one attempt: into the batch for the parent, judged against the
 * campaign's median on this CPU. 1 with why filled when the machine was off. */
static int S_sentinel_attempt(hb_run *r, json_t **out_obj, char *why, size_t n, json_t *child,
	const char *record, int attempt)
{
	json_t *sent = json_object_get(child, "sentinel");
	json_t *b = json_object_get(sent, "before"), *a = json_object_get(sent, "after");
	unsigned long long cb, ca;
	double ref, dev, limit;
	int off;

	*out_obj = NULL;
	if (!json_is_integer(json_object_get(b, "cycles")) ||
		!json_is_integer(json_object_get(a, "cycles")))
		return 0;
	cb = (unsigned long long)json_integer_value(json_object_get(b, "cycles"));
	ca = (unsigned long long)json_integer_value(json_object_get(a, "cycles"));
	if (r->sentinel_batch) {
		json_array_append_new(r->sentinel_batch, hb_sentinel_reading_json(r, r->cpu, "before",
			record, attempt, cb,
			(unsigned long long)json_integer_value(json_object_get(b, "ns"))));
		json_array_append_new(r->sentinel_batch, hb_sentinel_reading_json(r, r->cpu, "after",
			record, attempt, ca,
			(unsigned long long)json_integer_value(json_object_get(a, "ns"))));
	}
	ref = r->sentinel ? hb_sentinel_reference(r->sentinel, r->cpu) : -1;
	limit = r->sentinel ? hb_sentinel_limit(r->sentinel) : HB_SENTINEL_LIMIT_PCT;
	off = hb_sentinel_judge(why, n, &dev, ref, cb, ca, limit);
	*out_obj = json_pack("{s:I, s:I, s:o, s:o, s:f}", "before", (json_int_t)cb, "after",
		(json_int_t)ca, "reference", ref > 0 ? json_real(ref) : json_null(), "deviation_pct",
		dev >= 0 ? json_real(dev) : json_null(), "limit_pct", limit);
	return off;
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
		hb_run_note(r, "memory call: %s%s%s", status, detail ? ": " : "", detail ? detail : "");
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

const char *hb_run_measure(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *kat_result, unsigned long long bytes, const hb_elf_sizes *sizes)
{
	hb_driver_setup setup = hb_run_driver(r);
	hb_driver_cmd drv;
	char **argv = drv.argv, started[32], finished[32];
	char *path = hb_run_record_path(r, inst, bytes), *dir;
	hb_child run;
	json_t *rec, *cmd, *env, *res, *child = NULL, *trials;
	const char *status = "ok";
	char *detail = NULL;
	unsigned limit = r->o->time_limit_s ? r->o->time_limit_s : r->prof->time_limit_s;
	long long khz = -1, khz_after = -1;
	json_t *retries = json_array(), *load_before = NULL, *load_after = NULL, *sentinel = NULL;
	char *rel = hb_sprintf("%s", path + strlen(r->sysdir) + 1);
	int i, attempt, disturbed = 0;

	hb_driver_cmd_init(&drv, &setup, b->library, bytes, inst->digest_bits);
	memset(&run, 0, sizeof(run));

	for (attempt = 0;; attempt++) {
		char why[160];
		status = "ok";
		load_before = S_loadavg();
		khz = S_cur_khz(r);
		hb_utc_now(started);
		json_decref(child);
		free(detail);
		status = hb_driver_run(&run, &child, &detail, &drv, b->library, limit);
		hb_utc_now(finished);
		load_after = S_loadavg();
		khz_after = S_cur_khz(r);
		json_decref(sentinel);
		disturbed = 0;
		if (strcmp(status, "ok") == 0) {
			char swhy[160];
			int off = S_sentinel_attempt(r, &sentinel, swhy, sizeof(swhy), child, rel, attempt);
			disturbed = S_disturbed(why, sizeof(why), json_object_get(child, "trials"));
			if (off && !disturbed)
				snprintf(why, sizeof(why), "%s", swhy);
			disturbed |= off;
		}
		if (!disturbed || attempt == MAX_RETRIES)
			break;
		/* a disturbed attempt is kept as evidence, and the record measured again */
		json_array_append_new(retries, json_pack("{s:s, s:s, s:s, s:O, s:o, s:o, s:O*}", "reason",
			why, "started", started, "finished", finished, "trials",
			json_object_get(child, "trials"), "load_before", load_before, "load_after", load_after,
			"sentinel", sentinel));
		hb_run_note(r, "%s (%s) hash_%llu: %s; measuring again", inst->name, inst->impl, bytes, why);
		json_decref(child);
		child = NULL;
	}
	if (detail) {
		char *nl;
		while ((nl = strchr(detail, '\n')) != NULL)
			*nl = ' ';
	}

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
	cmd = json_array();
	json_array_append_new(cmd, json_string("hashbench-measure"));
	for (i = 1; argv[i]; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	json_object_set_new(rec, "command", cmd);
	json_object_set_new(rec, "build", hb_run_build_json(b, inst));
	env = json_object();
	json_object_set_new(env, "cpu", json_integer(r->cpu));
	json_object_set_new(env, "counter", json_string(hb_counter_name(&r->counter)));
	json_object_set_new(env, "governor", hb_json_str_or_null(r->env->governor));
	json_object_set_new(env, "cur_khz", hb_json_int_or_null(khz));
	json_object_set_new(env, "cur_khz_after", hb_json_int_or_null(khz_after));
	json_object_set_new(env, "load_before", load_before ? load_before : json_null());
	json_object_set_new(env, "load_after", load_after ? load_after : json_null());
	json_object_set_new(env, "started", json_string(started));
	json_object_set_new(env, "finished", json_string(finished));
	json_object_set_new(rec, "environment", env);
	json_object_set_new(rec, "sandbox", hb_sandbox_json(limit));
	if (run.output_len) {
		/* what the library printed: text in the record, never parsed */
		json_object_set_new(rec, "output", json_stringn_nocheck(run.output, run.output_len));
		json_object_set_new(rec, "output_truncated", json_boolean(run.output_truncated));
	}
	json_object_set_new(rec, "input", json_pack("{s:s, s:I}", "generator", "splitmix64",
		"seed", child && json_is_integer(json_object_get(child, "message_seed")) ?
		json_integer_value(json_object_get(child, "message_seed")) : (json_int_t)0));
	if (child && json_object_get(child, "calibration"))
		json_object_set(rec, "calibration", json_object_get(child, "calibration"));
	trials = strcmp(status, "ok") == 0 ? json_object_get(child, "trials") : NULL;
	json_object_set_new(rec, "trials", trials ? json_incref(trials) : json_array());
	if (trials && json_is_array(json_object_get(child, "samples"))) {
		double spread = S_spread_pct(json_object_get(child, "samples"));
		json_object_set(rec, "samples", json_object_get(child, "samples"));
		if (spread > r->spread_limit) {
			r->sum.unstable++;
			hb_run_note(r, "%s (%s) hash_%llu: spread %.1f %% of the median, above %.1f %%",
				inst->name, inst->impl, bytes, spread, r->spread_limit);
		}
	}
	json_object_set_new(rec, "disturbed", json_boolean(disturbed));
	json_object_set_new(rec, "retries", retries);
	if (sentinel && strcmp(status, "ok") == 0)
		json_object_set(rec, "sentinel", sentinel);
	if (json_array_size(retries))
		r->sum.remeasured++;
	if (disturbed)
		r->sum.disturbed++;
	res = json_object();
	json_object_set_new(res, "static_bytes", json_integer((json_int_t)sizes->total));
	json_object_set_new(res, "text_bytes", json_integer((json_int_t)sizes->text));
	json_object_set_new(res, "data_bytes", json_integer((json_int_t)sizes->data));
	if (strcmp(status, "ok") == 0) {
		json_t *cr = json_object_get(child, "resources");
		json_object_set(res, "baseline_rss_kib", json_object_get(cr, "baseline_rss_kib"));
		json_object_set(res, "peak_rss_kib", json_object_get(cr, "peak_rss_kib"));
		S_memory(r, rec, res, &drv, b, limit);
	} else {
		json_object_set_new(res, "baseline_rss_kib", json_null());
		json_object_set_new(res, "peak_rss_kib", json_null());
	}
	json_object_set_new(rec, "resources", res);

	dir = hb_sprintf("%s/records/%s", r->sysdir, inst->algorithm->id);
	if (hb_mkdir_p(dir) != 0 || hb_json_write(path, rec) != 0) {
		hb_run_note(r, "%s", hb_error_last());
		status = "error";
	}
	if (strcmp(status, "ok") != 0)
		hb_run_note(r, "%s (%s) hash_%llu: %s%s%s", inst->name, inst->impl, bytes,
			detail && strncmp(detail, status, strlen(status)) == 0 ? "" : status,
			detail && strncmp(detail, status, strlen(status)) != 0 ? ": " : "",
			detail ? detail : "");
	json_decref(rec);
	json_decref(child);
	json_decref(sentinel);
	hb_child_clear(&run);
	free(detail);
	free(dir);
	free(path);
	free(rel);
	return status;
}
