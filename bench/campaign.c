/* campaign.c — `hashbench run`: build every library, check its KATs, time it in pinned child
 * processes and write the evidence of DESIGN.md atomically, resuming what an interrupted run
 * left and surviving libraries that crash, hang or lie. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "hbcampaign.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

static const unsigned long long S_guide_sizes[] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };
/* The ebash profile: the guide's sizes and eBASH's reporting lengths (8, 64, 576, 1536, 4096 and
 * long messages, here 65536), in one sorted list. */
static const unsigned long long S_ebash_sizes[] = { 8, 32, 64, 128, 512, 576, 1024, 1536, 4096,
	8192, 16384, 65536 };

/* Passes over every library, each timing every size in blocks of about 1 ms (docs/campaign.md:
 * the headline figure): guide, 10 passes of 60 blocks (600 ms a size in all, the guide's round,
 * spread over the campaign); quick, 10 of 10. Single-call samples: 101 (guide) or 51 per size
 * and pass; a record's spread is that of its fastest pass. */
static const hb_run_profile S_profiles[] = {
	{ "guide", 10, 60, 101, 1000, 20, 20000, 120 },
	{ "quick", 10, 10, 51, 1000, 3, 20000, 30 },
	{ "ebash", 10, 10, 51, 1000, 3, 20000, 30 },
};


static int S_valid_system(const char *s)
{
	size_t i, n = strlen(s);
	if (n == 0 || n > 64 || !isalnum((unsigned char)s[0]))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return 0;
	return 1;
}

static const hb_run_profile *S_find_profile(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(S_profiles) / sizeof(S_profiles[0]); i++)
		if (strcmp(S_profiles[i].name, name) == 0)
			return &S_profiles[i];
	return NULL;
}

static int S_parse_sizes(hb_run *r, const char *list)
{
	return hb_sizes_parse(r->sizes, &r->nsizes, list, strcmp(r->prof->name, "ebash") == 0);
}

int hb_sizes_parse(unsigned long long *sizes, size_t *nsizes, const char *list, int ebash)
{
	char *copy, *tok, *save = NULL;
	size_t i;

	*nsizes = 0;
	if (!list) {
		*nsizes = ebash ? sizeof(S_ebash_sizes) / sizeof(S_ebash_sizes[0]) :
			sizeof(S_guide_sizes) / sizeof(S_guide_sizes[0]);
		for (i = 0; i < *nsizes; i++)
			sizes[i] = ebash ? S_ebash_sizes[i] : S_guide_sizes[i];
		return 0;
	}
	copy = hb_strdup(list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long long v;
		errno = 0;
		v = strtoull(tok, &end, 10);
		if (errno || *end || end == tok || v == 0 || v > (1ULL << 30) || tok[0] == '-' ||
			*nsizes == NSIZES_MAX) {
			hb_error_set("--sizes: '%s' is not a message size in bytes (1 to 1073741824)", tok);
			free(copy);
			return HB_ERROR;
		}
		sizes[(*nsizes)++] = v;
	}
	free(copy);
	if (!*nsizes)
		return hb_error_set("--sizes: empty list");
	return 0;
}

int hb_default_cpu(void)
{
	cpu_set_t set;
	int i, last = -1;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			last = i;
	return last < 0 ? 0 : last;
}

static int S_cpu_allowed(int cpu)
{
	cpu_set_t set;
	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	return CPU_ISSET(cpu, &set);
}



/* ---- system.json ---- */

/* "62.5 MHz", "2.71 GHz": a counter's or a core's rate for people. */
static const char *S_hz(char *b, size_t n, double hz)
{
	if (hz >= 1e9)
		snprintf(b, n, "%.4g GHz", hz / 1e9);
	else
		snprintf(b, n, "%.4g MHz", hz / 1e6);
	return b;
}

/* system.json's counter: what was read, whether its ticks are the core's cycles, the declared
 * core clock and the unit the figures are in. The records keep the ticks as read; the pages
 * convert them with core_hz / hz (docs/arm.md). */
static json_t *S_counter_json(const hb_run *r)
{
	int cycles = hb_counter_counts_cycles(&r->counter);
	return json_pack("{s:s, s:o, s:b, s:o, s:s}", "name", hb_counter_name(&r->counter),
		"hz", r->counter_hz > 0 ? json_integer((json_int_t)(r->counter_hz + 0.5)) : json_null(),
		"counts_core_cycles", cycles,
		"core_hz", r->o->core_hz ? json_integer((json_int_t)r->o->core_hz) : json_null(),
		"unit", cycles || r->o->core_hz ? "cycles" : "ticks");
}

/* The warning of a counter that is not a hardware cycle counter, NULL for perf-cycles. */
static char *S_counter_warning(const hb_run *r)
{
	char hz[32], core[32];
	if (r->counter.kind == HB_COUNTER_PERF)
		return NULL;
	if (hb_counter_counts_cycles(&r->counter))
		return hb_sprintf("no hardware cycle counter: cycles are counted by the time-stamp "
			"counter, not by the core");
	S_hz(hz, sizeof(hz), r->counter_hz);
	if (!r->o->core_hz)
		return hb_sprintf("no hardware cycle counter: the figures are ticks of %s at %s, not "
			"the core's cycles (hashbench run --core-hz HZ declares the core's fixed clock to "
			"convert them)", hb_counter_name(&r->counter), hz);
	return hb_sprintf("no hardware cycle counter: cycles are ticks of %s × the declared core "
		"clock %s / the counter's %s, right only while the core runs at that clock",
		hb_counter_name(&r->counter), S_hz(core, sizeof(core), (double)r->o->core_hz), hz);
}

static json_t *S_system_json(const hb_run *r, const char *end)
{
	const hb_env *e = r->env;
	json_t *clock = json_object(), *boost = json_null(), *warnings = json_array();
	json_t *campaign = json_object(), *sys = json_object();
	json_t *sizes = json_array(), *cpus = json_array();
	char version[128], *counter_warning = S_counter_warning(r);
	size_t i;

	if (e->boost_name) {
		boost = json_object();
		json_object_set_new(boost, "name", json_string(e->boost_name));
		json_object_set_new(boost, "state", hb_json_str_or_null(e->boost_state));
	}
	json_object_set_new(clock, "governor", hb_json_str_or_null(e->governor));
	json_object_set_new(clock, "min_khz", hb_json_int_or_null(e->min_khz));
	json_object_set_new(clock, "max_khz", hb_json_int_or_null(e->max_khz));
	json_object_set_new(clock, "boost", boost);
	json_object_set_new(clock, "smt", hb_json_str_or_null(e->smt));

	for (i = 0; e->warnings && e->warnings[i]; i++)
		json_array_append_new(warnings, json_string(e->warnings[i]));
	if (counter_warning)
		json_array_append_new(warnings, json_string(counter_warning));
	free(counter_warning);

	snprintf(version, sizeof(version), "%s (git %s)", HB_VERSION, HB_GIT_COMMIT);
	for (i = 0; i < r->nsizes; i++)
		json_array_append_new(sizes, json_integer((json_int_t)r->sizes[i]));
	json_object_set_new(campaign, "start", json_string(r->start));
	json_object_set_new(campaign, "end", end ? json_string(end) : json_null());
	json_object_set_new(campaign, "profile", json_string(r->prof->name));
	json_object_set_new(campaign, "hashbench", json_string(version));
	json_object_set_new(campaign, "estimator", json_string(HB_HEADLINE_ESTIMATOR));
	json_object_set_new(campaign, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(campaign, "passes", json_integer(r->prof->passes));
	json_object_set_new(campaign, "rounds", json_integer(r->prof->blocks));
	json_object_set_new(campaign, "round_ms", json_integer(r->prof->block_us / 1000));
	json_object_set_new(campaign, "block_us", json_integer(r->prof->block_us));
	json_object_set_new(campaign, "warmup_ms", json_integer(r->prof->warmup_ms));
	json_object_set_new(campaign, "max_calls", json_integer(r->prof->max_calls));
	json_object_set_new(campaign, "message_sizes", sizes);
	json_object_set_new(campaign, "samples_per_record", json_integer(r->prof->samples));
	json_object_set_new(campaign, "spread_limit_pct", json_real(r->spread_limit));
	json_object_set_new(campaign, "precision_pct", r->o->precision_pct > 0 ?
		json_real(r->o->precision_pct) : json_null());
	/* schedule "interleaved": the paired passes spread among the passes (schedule.c); evidence
	 * without it ran them after the passes */
	json_object_set_new(campaign, "paired", r->anchor ? json_pack("{s:s, s:{s:s, s:s}, s:i, "
		"s:i, s:f, s:s}", "method", HB_PAIRED_METHOD, "anchor", "instance", r->anchor->name,
		"implementation", r->anchor->impl, "passes", (int)r->paired_passes, "rounds",
		hb_paired_rounds(r), "wide_pct", HB_PAIRED_WIDE_PCT, "schedule", "interleaved") :
		json_null());
	json_object_set_new(campaign, "interval", json_pack("{s:s, s:f, s:f, s:s, s:f}", "method",
		HB_INTERVAL_METHOD, "level", HB_INTERVAL_LEVEL, "floor_pct", r->floor.pct,
		"floor_source", r->floor.source, "target_pct", r->target_pct));
	json_object_set_new(campaign, "history", hb_run_history_json(r));
	json_object_set_new(campaign, "disturbed_when", json_pack("{s:f, s:f, s:f, s:f}",
		"switches_base", HB_SWITCHES_BASE, "switches_per_s", HB_SWITCHES_PER_S, "steal_min_ms",
		HB_STEAL_MIN_MS, "steal_pct", HB_STEAL_PCT));
	json_object_set_new(campaign, "max_retries", json_integer(MAX_RETRIES));
	for (i = 0; i < r->ncpus; i++)
		json_array_append_new(cpus, json_integer(r->cpus[i]));
	json_object_set_new(campaign, "timing_cpus", cpus);
	json_object_set_new(campaign, "overlap", json_boolean(r->o->overlap));
	if (r->durations)
		json_object_set(campaign, "durations", r->durations);
	if (r->sentinel)
		json_object_set_new(campaign, "sentinel", hb_sentinel_summary(r->sentinel));

	json_object_set_new(sys, "schema", json_string("hashbench.system/1"));
	json_object_set_new(sys, "system", json_string(r->o->system));
	json_object_set_new(sys, "arch", hb_json_str_or_null(e->arch));
	json_object_set_new(sys, "processor", hb_json_str_or_null(e->processor));
	if (e->machine)
		json_object_set_new(sys, "machine", json_string(e->machine));
	json_object_set_new(sys, "cpu", json_integer(e->cpu));
	json_object_set_new(sys, "clock", clock);
	json_object_set_new(sys, "memory_mib", hb_json_int_or_null(e->memory_mib));
	json_object_set_new(sys, "os", hb_json_str_or_null(e->os));
	json_object_set_new(sys, "kernel", hb_json_str_or_null(e->kernel));
	json_object_set_new(sys, "compiler", hb_json_str_or_null(e->compiler));
	json_object_set_new(sys, "build_tool", hb_json_str_or_null(e->build_tool));
	json_object_set_new(sys, "virtual_machine", e->virtual_machine < 0 ? json_null() :
		json_boolean(e->virtual_machine));
	json_object_set_new(sys, "hypervisor", hb_json_str_or_null(e->hypervisor));
	json_object_set_new(sys, "counter", S_counter_json(r));
	{
		json_t *ov = json_object();
		json_object_set_new(ov, "counter_read_cycles", json_integer((json_int_t)r->counter_read_cycles));
		json_object_set_new(ov, "empty_call_cycles", r->empty_call_cycles >= 0 ?
			json_real((double)(long long)(r->empty_call_cycles * 10 + 0.5) / 10) : json_null());
		/* the same choice on every system: loop and counter costs stay in the figures */
		json_object_set_new(ov, "subtracted", json_false());
		json_object_set_new(sys, "overhead", ov);
	}
	json_object_set_new(sys, "warnings", warnings);
	json_object_set_new(sys, "sandbox", hb_sandbox_json(r->o->time_limit_s ? r->o->time_limit_s :
		r->prof->time_limit_s));
	json_object_set_new(sys, "campaign", campaign);
	if (r->shard)
		json_object_set(sys, "shard", r->shard);
	return sys;
}

/* What one read of the counter costs: the median of 1001 back-to-back pairs. */
static unsigned long long S_counter_read_cost(const hb_counter *c)
{
	uint64_t d[1001];
	size_t i;
	for (i = 0; i < 1001; i++) {
		uint64_t c0 = hb_counter_read(c);
		uint64_t c1 = hb_counter_read(c);
		d[i] = c1 - c0;
	}
	qsort(d, 1001, sizeof(d[0]), hb_cmp_u64);
	return (unsigned long long)d[500];
}

static int S_setup(hb_run *r, const hb_campaign_opts *o)
{
	char *cc;
	size_t i, k;

	memset(r, 0, sizeof(*r));
	r->counter.fd = -1;
	r->o = o;
	for (i = 0; i < HB_MAX_CPUS; i++)
		r->lock_fds[i] = -1;
	hb_run_history_init(r);
	if (o->sentinel_limit_pct < 0)
		return hb_error_set("--sentinel-limit %g: expected a percentage above 0",
			o->sentinel_limit_pct);
	if (hb_sentinel_new(&r->sentinel, o->sentinel_limit_pct) != 0)
		return HB_ERROR;
	r->prof = S_find_profile(o->profile ? o->profile : "guide");
	if (!r->prof)
		return hb_error_set("--profile %s: expected guide, quick or ebash", o->profile);
	if (o->passes) {
		r->prof_own = *r->prof;
		r->prof_own.passes = (int)o->passes;
		r->prof = &r->prof_own;
	}
	if (!o->system || !S_valid_system(o->system))
		return hb_error_set("--system %s: expected 1 to 64 letters, digits, '_', '-' or '.', "
			"starting with a letter or digit", o->system ? o->system : "(missing)");
	if (S_parse_sizes(r, o->sizes) != 0)
		return HB_ERROR;
	r->ncpus = o->ncpus ? o->ncpus : 1;
	for (i = 0; i < r->ncpus; i++) {
		r->cpus[i] = o->ncpus ? o->cpus[i] : hb_default_cpu();
		if (!S_cpu_allowed(r->cpus[i]))
			return hb_error_set("--cpu %d: not a CPU this process may run on", r->cpus[i]);
		for (k = 0; k < i; k++)
			if (r->cpus[k] == r->cpus[i])
				return hb_error_set("--cpu: CPU %d is named twice", r->cpus[i]);
	}
	r->cpu = r->cpus[0];
	r->jobs = o->jobs ? o->jobs : hb_pool_default_jobs();
	if (o->shard_count && (o->shard_index < 1 || o->shard_index > o->shard_count))
		return hb_error_set("--shard %u/%u: expected K/N with 1 <= K <= N", o->shard_index,
			o->shard_count);
	if (hb_counter_open(&r->counter, NULL) != 0)
		return hb_error_set("no cycle counter on this machine");
	r->counter_hz = hb_counter_calibrate_hz(&r->counter, 100);
	if (o->core_hz && hb_counter_counts_cycles(&r->counter))
		return hb_error_set("--core-hz %llu: the figures here are the core's cycles already "
			"(counter %s); --core-hz converts the ticks of a counter that is not the core's "
			"clock, such as cntvct", o->core_hz, hb_counter_name(&r->counter));
	if (o->core_hz && !(r->counter_hz > 0))
		return hb_error_set("--core-hz %llu: the counter here (%s) has no known rate to convert "
			"its ticks from", o->core_hz, hb_counter_name(&r->counter));
	r->counter_read_cycles = S_counter_read_cost(&r->counter);
	r->empty_call_cycles = -1;
	r->spread_limit = o->spread_limit_pct > 0 ? o->spread_limit_pct : 5.0;
	r->target_pct = o->precision_pct > 0 ? o->precision_pct : HB_TARGET_PCT;
	cc = hb_profiles_cc(o->profiles); /* NULL: the environment says "not available" */
	if (hb_env_read(&r->env, o->env_root ? o->env_root : "/", r->cpu, cc, 1) != 0) {
		free(cc);
		return HB_ERROR;
	}
	free(cc);
	/* the seed of every pass's order and placement: drawn anew, so that another campaign
	 * samples other placements, and recorded */
	if (o->seed)
		r->seed = o->seed;
	else if (getrandom(&r->seed, sizeof(r->seed), 0) != (ssize_t)sizeof(r->seed))
		r->seed = hb_now_ns() ^ ((unsigned long long)getpid() << 32);
	if (!o->seed)
		r->seed >>= 1; /* a JSON integer as written */
	hb_utc_now(r->start);
	return 0;
}

static void S_teardown(hb_run *r)
{
	hb_env_free(r->env);
	hb_counter_close(&r->counter);
	free(r->sysdir);
	hb_run_plan_free(r->plan);
	json_decref(r->shard);
	json_decref(r->durations);
	hb_sentinel_free(r->sentinel);
	json_decref(r->history);
	for (size_t i = 0; i < r->ncpus; i++)
		hb_cpulock_release(r->lock_fds[i]);
}

int hb_campaign_system_json(char **out, const hb_campaign_opts *o)
{
	hb_run r;
	json_t *j;
	int rc;

	*out = NULL;
	if ((rc = S_setup(&r, o)) != 0) {
		S_teardown(&r);
		return rc;
	}
	j = S_system_json(&r, NULL);
	*out = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	S_teardown(&r);
	return *out ? 0 : hb_error_set("cannot serialise system.json");
}

/* ---- the data folder ---- */

static int S_probe_writable(const char *dir)
{
	char *probe = hb_path_join(dir, ".hashbench-probe");
	int rc = hb_file_write_atomic(probe, "", 0);
	unlink(probe);
	free(probe);
	if (rc != 0)
		return hb_error_set("%s: the data folder is not writable", dir);
	return 0;
}

static int S_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : hb_error_set("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		int rc = 0;
		if (!d)
			return hb_error_set("%s: %s", path, strerror(errno));
		while (rc == 0 && (de = readdir(d)) != NULL) {
			char *sub;
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			sub = hb_path_join(path, de->d_name);
			rc = S_rm_rf(sub);
			free(sub);
		}
		closedir(d);
		if (rc == 0 && rmdir(path) != 0)
			rc = hb_error_set("%s: %s", path, strerror(errno));
		return rc;
	}
	if (unlink(path) != 0)
		return hb_error_set("%s: %s", path, strerror(errno));
	return 0;
}

/* Temporary files of atomic writes that a killed run left behind ("<name>.tmp.<pid>"). */
static void S_clean_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *sub;
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		sub = hb_path_join(dir, de->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			S_clean_tmp(sub);
		else if (strstr(de->d_name, ".tmp."))
			unlink(sub);
		free(sub);
	}
	closedir(d);
}

/* ---- what the loop and an empty call cost ---- */

/* Time the null instance (an empty CryptHash) with the profile's rounds: the mean cycles of one
 * call inside the timing loop. Left unknown (< 0) when it cannot be built or run. */
static void S_empty_call(hb_run *r)
{
	char *sources[] = { (char *)hb_own_path(HB_OWN_NULL_SOURCE), NULL }, *none[] = { NULL };
	hb_driver_setup setup = hb_run_driver(r);
	hb_driver_cmd cmd;
	hb_child run;
	hb_instance inst;
	hb_build_result *b = NULL;
	json_t *child, *t;
	double cycles = 0, iterations = 0;
	size_t i;

	memset(&inst, 0, sizeof(inst));
	inst.name = "null";
	inst.impl = "reference";
	inst.profile = "reference";
	inst.digest_bits = 256;
	inst.sources = sources;
	inst.include_dirs = none;
	inst.extra_cflags = none;
	if (hb_build(&b, &inst, r->o->profiles, r->o->work) != 0) {
		hb_note(r->o->progress, r->tty, "warning: the null instance did not build: %s",
			hb_error_last());
		return;
	}
	hb_driver_cmd_init(&cmd, &setup, b->library, "32", NULL, 0, 256);
	if (hb_sandbox_exec(&run, b->library, 60, cmd.run) == 0 && run.status == HB_CHILD_OK &&
		run.result.data &&
		(child = json_loads((char *)run.result.data, JSON_DISABLE_EOF_CHECK, NULL)) != NULL) {
		json_array_foreach(json_object_get(json_array_get(json_object_get(child, "sizes"), 0),
			"trials"), i, t) {
			cycles += (double)json_integer_value(json_object_get(t, "cycles"));
			iterations += (double)json_integer_value(json_object_get(t, "iterations"));
		}
		if (iterations > 0)
			r->empty_call_cycles = cycles / iterations;
		json_decref(child);
	}
	hb_child_clear(&run);
	hb_build_result_free(b);
}

/* ---- the campaign ---- */

static int S_check_only(const hb_catalog *cat, const char *only)
{
	char *copy, *tok, *save = NULL;
	size_t i;
	int rc = 0;
	if (!only)
		return 0;
	copy = hb_strdup(only);
	for (tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		int found = 0;
		for (i = 0; i < cat->nalgorithms; i++)
			found |= strcmp(cat->algorithms[i].id, tok) == 0;
		if (!found) {
			char known[1024] = "";
			for (i = 0; i < cat->nalgorithms; i++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
					i ? ", " : "", cat->algorithms[i].id);
			rc = hb_error_set("--only: unknown algorithm '%s' (known: %s)", tok, known);
		}
	}
	free(copy);
	return rc;
}

/* Before anything is written: this campaign's lock on each of its timing CPUs, held to its end,
 * so that two campaigns never time on one CPU at once. */
static int S_lock_cpus(hb_run *r)
{
	char *who = hb_sprintf("campaign %s in %s", r->o->system, r->o->data_dir);
	size_t i;
	int rc = 0;
	for (i = 0; i < r->ncpus && rc == 0; i++)
		rc = hb_cpulock_take(&r->lock_fds[i], r->cpus[i], !r->o->no_wait, who,
			r->o->progress ? r->o->progress : stderr);
	free(who);
	return rc;
}

int hb_campaign_run(hb_campaign_summary *out, const hb_campaign_opts *o)
{
	hb_run r;
	hb_catalog *cat = NULL;
	json_t *sys = NULL, *old;
	char *sys_path = NULL, end[32];
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	/* the catalog first: a wrong --submissions, --supercop or --only is said at once, not after
	 * waiting for another campaign's CPU (opening it writes nothing) */
	if ((rc = S_setup(&r, o)) != 0 ||
		(rc = hb_catalog_open(&cat, o->submissions, o->supercop)) != 0 ||
		(rc = S_check_only(cat, o->only)) != 0 || (rc = S_lock_cpus(&r)) != 0)
		goto out;
	r.t_start = hb_now_ns();
	r.tty = o->progress && isatty(fileno(o->progress));
	for (i = 0; cat->warnings && cat->warnings[i]; i++)
		hb_note(r.o->progress, r.tty, "warning: %s", cat->warnings[i]);
	r.sysdir = hb_path_join(o->data_dir, o->system);
	if ((rc = hb_mkdir_p(r.sysdir)) != 0 || (rc = S_probe_writable(r.sysdir)) != 0)
		goto out;
	sys_path = hb_path_join(r.sysdir, "system.json");
	S_clean_tmp(r.sysdir);
	if (o->fresh) {
		char *p;
		const char *parts[] = { "records", "kat", "SHA256SUMS", "system.json", "sentinel.json",
			NULL };
		for (i = 0; parts[i]; i++) {
			p = hb_path_join(r.sysdir, parts[i]);
			rc = S_rm_rf(p);
			free(p);
			if (rc)
				goto out;
		}
	} else if ((old = json_load_file(sys_path, 0, NULL)) != NULL) {
		/* resuming: the campaign started when the first run did */
		json_t *c = json_object_get(old, "campaign");
		const char *start = json_string_value(json_object_get(c, "start"));
		const char *prof = json_string_value(json_object_get(c, "profile"));
		if (start && prof && strcmp(prof, r.prof->name) == 0 && strlen(start) < sizeof(r.start))
			snprintf(r.start, sizeof(r.start), "%s", start);
		json_decref(old);
	}
	for (i = 0; r.env->warnings && r.env->warnings[i]; i++)
		hb_note(r.o->progress, r.tty, "warning: %s", r.env->warnings[i]);
	{
		char *w = S_counter_warning(&r);
		if (w)
			hb_note(r.o->progress, r.tty, "warning: %s", w);
		free(w);
	}
	if ((rc = hb_run_plan_make(&r, cat)) != 0)
		goto out;
	hb_run_history_start(&r);
	S_empty_call(&r);
	sys = S_system_json(&r, NULL);
	if ((rc = hb_json_write(sys_path, sys)) != 0)
		goto out;

	if ((rc = hb_run_schedule(out, &r, cat)) != 0)
		goto out;
	if ((rc = hb_sentinel_write(r.sentinel, r.sysdir)) != 0)
		goto out;
	hb_utc_now(end);
	if ((rc = hb_run_history_finish(&r, end, out->measured)) != 0)
		goto out;
	json_decref(sys);
	sys = S_system_json(&r, end);
	if ((rc = hb_json_write(sys_path, sys)) != 0)
		goto out;
	rc = hb_write_sha256sums(r.sysdir);
	out->unstable = r.sum.unstable;
	out->remeasured = r.sum.remeasured;
	out->disturbed = r.sum.disturbed;
	out->wide = r.sum.wide;
out:
	json_decref(sys);
	free(sys_path);
	hb_catalog_free(cat);
	S_teardown(&r);
	return rc;
}
