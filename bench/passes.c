/* passes.c — one pass of a library: the driver times all its message sizes, interleaved, on the
 * timing CPU, and the pass is judged calm or disturbed by the sentinel, the involuntary context
 * switches and the host's steal time; then a record's headline figure, the fastest of its
 * passes' fastest blocks, confirmed when a second pass comes within 2 % of it and one of those
 * was calm. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

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

/* The driver's setup for this campaign's passes and memory calls. */
hb_driver_setup hb_run_driver(const hb_run *r)
{
	hb_driver_setup d = { r->o->measure_exe, hb_counter_name(&r->counter), r->cpu,
		r->prof->blocks, r->prof->samples, r->prof->block_us, r->prof->warmup_ms,
		r->prof->max_calls, 0, 0 };
	return d;
}

unsigned long long hb_pass_seed(unsigned long long campaign_seed, int pass, int which)
{
	/* the (2 pass + which + 1)-th value of the campaign seed's splitmix64 stream: below 2^63,
	 * as JSON readers take integers, and never 0, which the driver reads as "no placement" */
	unsigned long long x = campaign_seed + 0x9e3779b97f4a7c15ULL * (2ULL * (unsigned)pass +
		(unsigned)which), z = hb_splitmix64(&x) >> 1;
	return z ? z : 1;
}

/* The fastest block of one size, in cycles per call; -1 without blocks. */
static double S_fastest(json_t *trials)
{
	double best = -1;
	size_t i;
	json_t *t;
	json_array_foreach(trials, i, t) {
		double it = (double)json_integer_value(json_object_get(t, "iterations"));
		double c = (double)json_integer_value(json_object_get(t, "cycles"));
		if (it > 0 && (best < 0 || c / it < best))
			best = c / it;
	}
	return best;
}

/* The sentinel's readings of a pass: into the batch for the parent, judged against the
 * campaign's reference on this CPU (its usual best). 1 with why filled when the machine was slow. */
static int S_sentinel(hb_run *r, json_t **out_obj, char *why, size_t n, json_t *child,
	const char *what, int pass)
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
			what, pass, cb, (unsigned long long)json_integer_value(json_object_get(b, "ns"))));
		json_array_append_new(r->sentinel_batch, hb_sentinel_reading_json(r, r->cpu, "after",
			what, pass, ca, (unsigned long long)json_integer_value(json_object_get(a, "ns"))));
	}
	ref = r->sentinel ? hb_sentinel_reference(r->sentinel, r->cpu) : -1;
	limit = r->sentinel ? hb_sentinel_limit(r->sentinel) : HB_SENTINEL_FLOOR_PCT;
	off = hb_sentinel_judge(why, n, &dev, ref, cb, ca, limit);
	*out_obj = json_pack("{s:I, s:I, s:o, s:o, s:f}", "before", (json_int_t)cb, "after",
		(json_int_t)ca, "reference", ref > 0 ? json_real(ref) : json_null(), "deviation_pct",
		ref > 0 ? json_real(dev > 0 ? dev : 0) : json_null(), "limit_pct", limit);
	return off;
}

/* How long the driver timed (blocks and the two sentinel runs), in seconds. */
static double S_timed_s(json_t *child)
{
	double ns = 0;
	size_t i, k;
	json_t *z, *t;
	json_array_foreach(json_object_get(child, "sizes"), i, z)
		json_array_foreach(json_object_get(z, "trials"), k, t)
			ns += (double)json_integer_value(json_object_get(t, "ns"));
	ns += (double)json_integer_value(json_object_get(json_object_get(json_object_get(child,
		"sentinel"), "before"), "ns"));
	ns += (double)json_integer_value(json_object_get(json_object_get(json_object_get(child,
		"sentinel"), "after"), "ns"));
	return ns / 1e9;
}

/* Was anything else on the timing CPU? Fills why when the process was switched out more often
 * than a calm machine does it, or the host stole a large part of the time. */
static int S_interfered(char *why, size_t n, json_t *child, int cpu)
{
	double secs = S_timed_s(child);
	json_t *sw = json_object_get(child, "involuntary_switches");
	json_t *st = json_object_get(child, "steal_ms");
	if (json_is_integer(sw) && (double)json_integer_value(sw) >
		HB_SWITCHES_BASE + HB_SWITCHES_PER_S * secs) {
		snprintf(why, n, "the driver was switched out %lld times against its will in %.2f s "
			"(more than %.0f: another process on CPU %d)", (long long)json_integer_value(sw), secs,
			HB_SWITCHES_BASE + HB_SWITCHES_PER_S * secs, cpu);
		return 1;
	}
	if (json_is_number(st) && json_number_value(st) > HB_STEAL_MIN_MS &&
		json_number_value(st) > secs * 1e3 * HB_STEAL_PCT / 100) {
		snprintf(why, n, "the host stole %.0f ms of CPU %d's %.0f ms (more than %.0f %%)",
			json_number_value(st), cpu, secs * 1e3, HB_STEAL_PCT);
		return 1;
	}
	return 0;
}

static json_t *S_command(const hb_driver_cmd *drv)
{
	json_t *cmd = json_array();
	int i;
	json_array_append_new(cmd, json_string("hashbench-measure"));
	for (i = 1; drv->argv[i]; i++)
		json_array_append_new(cmd, json_string(drv->argv[i]));
	return cmd;
}

/* One size's part of a pass that failed: its status and why. */
static json_t *S_failed_entry(int pass, int cpu, const char *status, const char *detail,
	json_t *cmd, const hb_child *run)
{
	json_t *e = json_pack("{s:i, s:i, s:s, s:s?, s:O}", "pass", pass + 1, "cpu", cpu, "status",
		status, "detail", detail, "command", cmd);
	if (run->output_len) {
		json_object_set_new(e, "output", json_stringn_nocheck(run->output, run->output_len));
		json_object_set_new(e, "output_truncated", json_boolean(run->output_truncated));
	}
	return e;
}

json_t *hb_pass_run(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const unsigned long long *sizes, const unsigned long long *calls, size_t n, int pass)
{
	hb_driver_setup setup = hb_run_driver(r);
	hb_driver_cmd drv;
	hb_child run;
	char started[32], finished[32], why[512] = "", swhy[256], label[64];
	char *bytes = hb_ull_list(sizes, n), *calls_s = calls ? hb_ull_list(calls, n) : NULL;
	char *detail = NULL;
	json_t *out = json_object(), *child = NULL, *cmd, *sentinel = NULL, *load_before,
		*load_after, *z;
	unsigned limit = r->o->time_limit_s ? r->o->time_limit_s : r->prof->time_limit_s;
	long long khz, khz_after;
	const char *status;
	int calm = 1;
	size_t i;

	/* each pass its own order of the sizes and placement of the buffers, drawn from the
	 * campaign's seed, so that the passes sample what would otherwise repeat in every pass of
	 * every campaign (measurement-quality.md) */
	setup.placement_seed = hb_pass_seed(r->seed, pass, 1);
	hb_driver_cmd_init(&drv, &setup, b->library, bytes, calls_s, hb_pass_seed(r->seed, pass, 0),
		inst->digest_bits);
	memset(&run, 0, sizeof(run));
	cmd = S_command(&drv);
	load_before = S_loadavg();
	khz = S_cur_khz(r);
	hb_utc_now(started);
	status = hb_driver_run(&run, &child, &detail, &drv, b->library, limit);
	hb_utc_now(finished);
	load_after = S_loadavg();
	khz_after = S_cur_khz(r);
	if (detail) {
		char *nl;
		while ((nl = strchr(detail, '\n')) != NULL)
			*nl = ' ';
	}

	if (strcmp(status, "ok") != 0 && n > 1) {
		/* which size failed? each alone, so the others keep their figures */
		for (i = 0; i < n; i++) {
			json_t *one = hb_pass_run(r, inst, b, &sizes[i], calls ? &calls[i] : NULL, 1, pass);
			json_object_update(out, one);
			json_decref(one);
		}
	} else if (strcmp(status, "ok") != 0) {
		char key[32];
		snprintf(key, sizeof(key), "%llu", sizes[0]);
		json_t *e = S_failed_entry(pass, r->cpu, status, detail, cmd, &run);
		json_object_set_new(e, "started", json_string(started));
		json_object_set_new(e, "finished", json_string(finished));
		json_object_set(e, "load_before", load_before);
		json_object_set(e, "load_after", load_after);
		json_object_set_new(e, "cur_khz", hb_json_int_or_null(khz));
		json_object_set_new(e, "cur_khz_after", hb_json_int_or_null(khz_after));
		json_object_set_new(out, key, e);
	} else {
		snprintf(label, sizeof(label), "%s pass %d", inst->name, pass + 1);
		if (S_sentinel(r, &sentinel, swhy, sizeof(swhy), child, label, pass)) {
			calm = 0;
			snprintf(why, sizeof(why), "%s", swhy);
		}
		if (S_interfered(swhy, sizeof(swhy), child, r->cpu)) {
			size_t len = strlen(why);
			snprintf(why + len, sizeof(why) - len, "%s%s", calm ? "" : "; ", swhy);
			calm = 0;
		}
		json_array_foreach(json_object_get(child, "sizes"), i, z) {
			char key[32];
			json_t *e = json_pack("{s:i, s:i, s:s, s:s, s:s, s:b, s:s?, s:O*, s:O*, s:O*, s:O, "
				"s:O, s:o, s:o, s:O, s:O, s:O, s:O, s:O, s:f}",
				"pass", pass + 1, "cpu", r->cpu, "status", "ok", "started", started,
				"finished", finished, "calm", calm, "reason", calm ? NULL : why,
				"sentinel", sentinel, "involuntary_switches",
				json_object_get(child, "involuntary_switches"), "steal_ms",
				json_object_get(child, "steal_ms"), "load_before", load_before, "load_after",
				load_after, "cur_khz", hb_json_int_or_null(khz), "cur_khz_after",
				hb_json_int_or_null(khz_after), "command", cmd, "calibration",
				json_object_get(z, "calibration"), "trials", json_object_get(z, "trials"),
				"samples", json_object_get(z, "samples"), "resources",
				json_object_get(child, "resources"), "min_cycles_per_call",
				S_fastest(json_object_get(z, "trials")));
			json_object_set_new(e, "message_seed", json_incref(json_object_get(child,
				"message_seed")));
			if (json_object_get(child, "placement"))
				json_object_set(e, "placement", json_object_get(child, "placement"));
			if (json_object_get(child, "driver_start"))
				json_object_set(e, "driver_start", json_object_get(child, "driver_start"));
			if (run.output_len) {
				json_object_set_new(e, "output", json_stringn_nocheck(run.output,
					run.output_len));
				json_object_set_new(e, "output_truncated", json_boolean(run.output_truncated));
			}
			snprintf(key, sizeof(key), "%lld",
				(long long)json_integer_value(json_object_get(z, "bytes")));
			json_object_set_new(out, key, e);
		}
		if (!calm)
			hb_note(r->o->progress, r->tty, "%s (%s) pass %d: %s; left out of the figures",
				inst->name, inst->impl, pass + 1, why);
	}
	json_decref(child);
	json_decref(sentinel);
	json_decref(load_before);
	json_decref(load_after);
	json_decref(cmd);
	hb_child_clear(&run);
	free(detail);
	free(bytes);
	free(calls_s);
	return out;
}

int hb_pass_headline(json_t **out, const char **state, json_t *entries, unsigned long long bytes,
	double target_pct, const hb_floor *floor)
{
	json_t *used, *e;
	size_t i, confirmed = 0;
	hb_interval iv;

	*out = NULL;
	*state = "unconfirmed";
	/* a size whose every pass read 0 ticks a call (a counter too coarse for the call) has no
	 * figure: an error record saying so, never an "ok" one without a headline */
	if (hb_interval_of(&iv, entries, target_pct, floor) != 0)
		return hb_error_set("no pass measured more than 0 cycles a call (%zu %s)",
			json_array_size(entries), json_array_size(entries) == 1 ? "pass" : "passes");
	/* the fastest of every pass's figures (iv.best): what the machine did to one only ever
	 * adds time */
	used = json_array();
	json_array_foreach(entries, i, e) {
		double m = json_number_value(json_object_get(e, "min_cycles_per_call"));
		if (m > 0)
			json_array_append_new(used, json_real(m));
		confirmed += m > 0 && m <= iv.best * (1 + HB_CONFIRM_PCT / 100);
	}
	*state = iv.state;
	*out = json_pack("{s:s, s:f, s:f, s:o, s:i, s:f, s:o}", "estimator", HB_HEADLINE_ESTIMATOR,
		"cycles_per_call", iv.best, "cycles_per_byte", iv.best / (double)bytes, "passes", used,
		"confirmed_by", (int)confirmed, "confirm_pct", HB_CONFIRM_PCT, "interval",
		hb_interval_json(&iv, bytes));
	return 0;
}
