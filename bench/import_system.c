/* import_system.c — what the earlier harness's files say together: system.json (the host as the
 * harness's own pages describe it, the campaign, who measured and who imported) and the catalog
 * entry of an algorithm made from its KAT logs. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

static const char *S_s(json_t *e, const char *key)
{
	return json_string_value(json_object_get(e, key));
}

/* An integer, or a string of digits as sysfs readings are; -1 when neither. */
static long long S_n(json_t *e, const char *key)
{
	json_t *v = json_object_get(e, key);
	const char *s = json_string_value(v);
	if (json_is_integer(v))
		return json_integer_value(v) >= 0 ? (long long)json_integer_value(v) : -1;
	return s && strspn(s, "0123456789") == strlen(s) && *s ? strtoll(s, NULL, 10) : -1;
}

/* The record whose environment the harness's own pages describe: the first complete one measured
 * on the first shard CPU of campaign.json, else the first complete one (records in path order;
 * only the imported ones, which come before kem-, sig- and iccs records in that order). */
static const hb_imp_rfile *S_host(const hb_imp_run *m)
{
	json_t *cpus = json_object_get(m->campaign, "shard_cpus"), *v;
	const char *key;
	long long cpu = -1;
	size_t i;

	json_object_foreach(cpus, key, v) {
		cpu = json_is_integer(v) ? (long long)json_integer_value(v) : -1;
		break;
	}
	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].r.complete && m->recs[i].r.cpu == cpu)
			return &m->recs[i];
	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].r.complete)
			return &m->recs[i];
	return NULL;
}

static json_t *S_clock(json_t *e)
{
	const char *turbo = S_s(e, "intel_pstate_no_turbo"), *boost = S_s(e, "cpufreq_boost");
	const char *smt = S_s(e, "smt_control");
	json_t *b = json_null();

	/* no_turbo 1 means turbo off; cpufreq/boost 1 means boost on */
	if (turbo)
		b = json_pack("{s:s, s:s}", "name", "turbo", "state", strcmp(turbo, "1") == 0 ? "off" :
			strcmp(turbo, "0") == 0 ? "on" : turbo);
	else if (boost)
		b = json_pack("{s:s, s:s}", "name", "boost", "state", strcmp(boost, "0") == 0 ? "off" :
			strcmp(boost, "1") == 0 ? "on" : boost);
	if (smt && (strcmp(smt, "notsupported") == 0 || strcmp(smt, "notimplemented") == 0))
		smt = "none";
	else if (smt && strcmp(smt, "forceoff") == 0)
		smt = "off";
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "governor",
		hb_json_str_or_null(S_s(e, "cpufreq_governor")),
		"min_khz", hb_json_int_or_null(S_n(e, "cpufreq_min_khz")),
		"max_khz", hb_json_int_or_null(S_n(e, "cpufreq_max_khz")), "boost", b,
		"smt", hb_json_str_or_null(smt));
}

/* campaign.start and .end: campaign.json's, else the earliest start and latest end of a record. */
static int S_times(const hb_imp_run *m, char start[32], char end[32])
{
	const char *s = S_s(m->campaign, "started_utc"), *e = S_s(m->campaign, "ended_utc");
	size_t i;

	snprintf(start, 32, "%s", m->recs[0].r.started);
	snprintf(end, 32, "%s", m->recs[0].r.finished);
	for (i = 1; i < m->nrecs; i++) {
		if (strcmp(m->recs[i].r.started, start) < 0)
			snprintf(start, 32, "%s", m->recs[i].r.started);
		if (strcmp(m->recs[i].r.finished, end) > 0)
			snprintf(end, 32, "%s", m->recs[i].r.finished);
	}
	for (i = 0; i < 2; i++) {
		const char *key = i ? "ended_utc" : "started_utc", *v = i ? e : s;
		json_t *j = json_object_get(m->campaign, key);
		if ((j && !json_is_null(j) && !v) || (v && hb_imp_utc(i ? end : start, v) != 0))
			return hb_error_set("import: %s/campaign.json: %s: expected a time such as "
				"2026-09-28T15:05:46.790099+00:00", m->dir, key);
	}
	return 0;
}

static json_t *S_campaign(const hb_imp_run *m, const char *start, const char *end)
{
	json_t *plan = json_object_get(m->campaign, "planning"), *sizes = json_array();
	json_t *cpus = json_array(), *v, *target = json_object_get(plan, "trial_target_s");
	long long rounds = S_n(plan, "trials");
	unsigned long long last = 0;
	const char *key;
	size_t i, k;

	/* the harness planned each trial's calls to fill trial_target_s, at most max_iters_per_trial:
	 * our round_ms and max_calls; its warm-up is counted in calls, not milliseconds */
	for (i = 0; rounds < 0 && i < m->nrecs; i++)
		if (m->recs[i].r.plan_trials != m->recs[0].r.plan_trials)
			break;
	if (rounds < 0 && i == m->nrecs)
		rounds = m->recs[0].r.plan_trials;
	for (;;) { /* the sizes in ascending order, once each */
		unsigned long long next = 0;
		for (i = 0; i < m->nrecs; i++)
			if (m->recs[i].r.bytes > last && (!next || m->recs[i].r.bytes < next))
				next = m->recs[i].r.bytes;
		if (!next)
			break;
		json_array_append_new(sizes, json_integer((json_int_t)next));
		last = next;
	}
	json_object_foreach(json_object_get(m->campaign, "shard_cpus"), key, v)
		if (json_is_integer(v))
			json_array_append_new(cpus, json_incref(v));
	for (i = 0; json_array_size(cpus) == 0 && i < m->nrecs; i++) {
		for (k = 0; k < i && m->recs[k].r.cpu != m->recs[i].r.cpu; k++)
			;
		if (k == i)
			json_array_append_new(cpus, json_integer(m->recs[i].r.cpu));
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:n, s:o, s:o, s:o, s:b}", "start", start,
		"end", end, "profile", "guide", "hashbench", hb_imp_version() + strlen("hashbench "),
		"rounds", hb_json_int_or_null(rounds), "round_ms", json_is_number(target) ?
		hb_json_int_or_null((long long)(json_number_value(target) * 1000 + 0.5)) : json_null(),
		"warmup_ms", "max_calls", hb_json_int_or_null(S_n(plan, "max_iters_per_trial")),
		"message_sizes", sizes, "timing_cpus", cpus, "overlap", 0);
}

/* The first of keys that campaign.json gives as a string, or NULL. */
static json_t *S_said(const hb_imp_run *m, const char *const *keys)
{
	for (; *keys; keys++)
		if (S_s(m->campaign, *keys))
			return json_string(S_s(m->campaign, *keys));
	return json_null();
}

int hb_imp_system(json_t **out, const hb_imp_run *m)
{
	static const char *version[] = { "harness_version", "version", NULL };
	static const char *commit[] = { "harness_commit", "git_commit", "commit", NULL };
	const hb_imp_rfile *host = S_host(m);
	json_t *e = host ? host->r.environment : json_object_get(m->campaign, "environment_at_start");
	json_t *sys, *warnings = json_array();
	int counted = (host ? host : &m->recs[0])->r.counter_yes;
	char start[32], end[32];
	long long kib = S_n(e, "memory_total_kib");

	*out = NULL;
	if (!json_is_object(e))
		return hb_error_set("import: %s: no complete record and no environment_at_start in "
			"campaign.json: nothing says what the machine was", m->dir);
	if (S_n(e, "cpu_number") < 0)
		return hb_error_set("import: %s/campaign.json: environment_at_start.cpu_number: expected "
			"an integer", m->dir);
	if (S_times(m, start, end) != 0)
		return HB_ERROR;
	if (!counted)
		json_array_append_new(warnings, json_string("no hardware cycle counter: the harness's "
			"driver had no cycle count (cpu_cycles_available), so its cycles are not measured"));
	sys = json_object();
	json_object_set_new(sys, "schema", json_string("hashbench.system/1"));
	json_object_set_new(sys, "system", json_string(m->o->system));
	json_object_set_new(sys, "arch", hb_json_str_or_null(S_s(e, "architecture")));
	json_object_set_new(sys, "processor", hb_json_str_or_null(S_s(e, "cpu_model")));
	if (S_s(e, "machine"))
		json_object_set_new(sys, "machine", json_string(S_s(e, "machine")));
	json_object_set_new(sys, "cpu", json_integer(S_n(e, "cpu_number")));
	json_object_set_new(sys, "clock", S_clock(e));
	json_object_set_new(sys, "memory_mib", hb_json_int_or_null(kib < 0 ? -1 : kib / 1024));
	json_object_set_new(sys, "os", hb_json_str_or_null(S_s(e, "os")));
	json_object_set_new(sys, "kernel", hb_json_str_or_null(S_s(e, "kernel")));
	json_object_set_new(sys, "compiler", hb_json_str_or_null(S_s(e, "compiler")));
	json_object_set_new(sys, "build_tool", hb_json_str_or_null(S_s(e, "cmake")));
	json_object_set(sys, "virtual_machine", json_is_boolean(json_object_get(e, "virtualized")) ?
		json_object_get(e, "virtualized") : json_null());
	json_object_set_new(sys, "hypervisor", json_null());
	json_object_set_new(sys, "counter", json_pack("{s:s, s:o}", "name", counted ? "perf-cycles" :
		"none", "hz", hb_json_int_or_null(S_n(e, "core_clock_hz"))));
	json_object_set_new(sys, "overhead", json_pack("{s:n, s:n, s:b}", "counter_read_cycles",
		"empty_call_cycles", "subtracted", 0));
	json_object_set_new(sys, "warnings", warnings);
	json_object_set_new(sys, "campaign", S_campaign(m, start, end));
	json_object_set_new(sys, "measured_by", json_pack("{s:s, s:o, s:o, s:s, s:s}", "tool",
		"ngcc-harness", "version", S_said(m, version), "commit", S_said(m, commit),
		"imported_by", hb_imp_version(), "source", m->o->dir));
	*out = sys;
	return 0;
}

/* ---- the catalog ---- */

/* "LLH-256" before "LLH-1024": digits compare as numbers, as the harness orders instances. */
static int S_natural(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			char *ex, *ey;
			unsigned long long nx = strtoull(x, &ex, 10), ny = strtoull(y, &ey, 10);
			if (nx != ny)
				return nx < ny ? -1 : 1;
			x = ex;
			y = ey;
		} else if (*x != *y) {
			break;
		} else {
			x++;
			y++;
		}
	}
	return (unsigned char)*x - (unsigned char)*y;
}

/* The entry of id made from the KAT logs: the name from their `algorithm =` line, the
 * instances of the logs and records as parameter sets. */
json_t *hb_imp_catalog_entry(hb_imp_run *m, const char *id)
{
	const char *name = NULL, **sets = calloc(m->nrecs + m->nlogs + 1, sizeof(char *));
	json_t *j = json_array();
	size_t i, k, n = 0;

	for (i = 0; i < m->nrecs + m->nlogs; i++) {
		int log = i >= m->nrecs;
		const char *of = log ? m->logs[i - m->nrecs].o.id : m->recs[i].o.id;
		const char *inst = log ? m->logs[i - m->nrecs].k.n.instance : m->recs[i].r.n.instance;
		if (strcmp(of, id) != 0)
			continue;
		if (log && !name)
			name = m->logs[i - m->nrecs].k.algorithm;
		for (k = 0; k < n && strcmp(sets[k], inst) != 0; k++)
			;
		if (k == n)
			sets[n++] = inst;
	}
	qsort(sets, n, sizeof(char *), S_natural);
	for (k = 0; k < n; k++)
		json_array_append_new(j, json_string(sets[k]));
	free(sets);
	if (!name)
		hb_note(m->o->progress, 0, "import: no KAT log of %s names the algorithm: its catalog "
			"entry is named %s", id, id);
	return json_pack("{s:s, s:s, s:s, s:s, s:o}", "id", id, "name", name ? name : id,
		"category", "cryptographic hash algorithm", "function", "hash", "parameter_sets", j);
}
