/* schedule.c — the order of a campaign's work: which libraries this run (or shard) takes, their
 * builds and KAT checks in parallel worker processes, then passes over all libraries timed one
 * at a time per timing CPU (pass 1 of every library, then pass 2, …, then the passes measured
 * again), then each library's records written from its passes; everything reported and counted
 * in the same order whatever the parallelism. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

typedef struct {
	const hb_instance *inst;
	char *name;                   /* "<algorithm>/<stem>": its unit name in a shard plan */
	hb_build_result *b;           /* from its prepare task; NULL when the build failed */
	const char *kat;              /* "PASS", "FAIL", "UNVERIFIED" or "ERROR" */
	int timed;                    /* its records are to be measured */
	hb_elf_sizes sizes;           /* its static size and split */
	unsigned char kept[NSIZES_MAX]; /* the record of that size is kept from an earlier run */
	json_t *entries;              /* bytes -> the passes of that size, in the order measured */
	json_t *paired;               /* its paired passes' outcomes (paired_pass.c), in order */
	int disturbed_passes;         /* passes judged disturbed so far */
} S_lib;

struct hb_run_plan {
	S_lib *libs;
	size_t nlibs;
	size_t anchor;                /* the library every other is paired with (r->anchor set) */
};

typedef struct {
	hb_run *r;
	hb_campaign_summary *out;
	size_t npasses;               /* passes of every library, then the passes more */
	double build_s, kat_s, timing_s;
	json_t *half_widths;          /* every record's interval half-width, % */
	uint64_t t_prepared;
	hb_eta eta;                   /* the steps of each kind to come, and their time so far */
} S_ctx;

/* ---- which libraries ---- */

static int S_selected(const char *only, const char *id)
{
	char *copy, *tok, *save = NULL;
	int hit = 0;
	if (!only)
		return 1;
	copy = hb_strdup(only);
	for (tok = strtok_r(copy, ",", &save); tok && !hit; tok = strtok_r(NULL, ",", &save))
		hit = strcmp(tok, id) == 0;
	free(copy);
	return hit;
}

/* The shard (0-based) a library belongs to: the first 8 bytes of the SHA-256 of its unit name,
 * so every machine assigns it the same whatever else it finds. */
static unsigned S_shard_of(const char *name, unsigned count)
{
	unsigned char md[32];
	uint64_t v = 0;
	int i;
	hb_sha256(md, name, strlen(name));
	for (i = 0; i < 8; i++)
		v = v << 8 | md[i];
	return (unsigned)(v % count);
}

void hb_run_plan_free(hb_run_plan *p)
{
	size_t i;
	if (!p)
		return;
	for (i = 0; i < p->nlibs; i++) {
		free(p->libs[i].name);
		hb_build_result_free(p->libs[i].b);
		json_decref(p->libs[i].entries);
		json_decref(p->libs[i].paired);
	}
	free(p->libs);
	free(p);
}

/* The paired passes lib takes: none for the anchor itself. */
static size_t S_paired_tasks(const hb_run *r, const S_lib *lib)
{
	return lib->inst == r->anchor ? 0 : r->paired_passes;
}

/* The anchor of the paired passes: SM3's reference (every NGCC candidate is compared with it),
 * else SHA-256's, when this run takes it and another library; none with --paired-passes 0, and
 * none in a shard (a shard without the anchor could not pair, and merged shards agree on it). */
static void S_anchor(hb_run *r, hb_run_plan *p)
{
	static const char *const names[] = { "SM3", "SHA-256" };
	size_t k, i;

	r->anchor = NULL;
	r->paired_passes = r->o->paired_passes < 0 || r->o->shard_count ? 0 : r->o->paired_passes > 0 ?
		(unsigned)r->o->paired_passes : HB_PAIRED_PASSES;
	for (k = 0; k < 2 && !r->anchor && r->paired_passes && p->nlibs > 1; k++)
		for (i = 0; i < p->nlibs && !r->anchor; i++)
			if (strcmp(p->libs[i].inst->name, names[k]) == 0 &&
				strcmp(p->libs[i].inst->impl, "reference") == 0) {
				p->anchor = i;
				r->anchor = p->libs[i].inst;
			}
	if (!r->anchor)
		r->paired_passes = 0;
}

int hb_run_plan_make(hb_run *r, const hb_catalog *cat)
{
	hb_run_plan *p = calloc(1, sizeof(*p));
	json_t *all = json_array(), *mine = json_array();
	size_t a, k, n = 0;

	if (!p)
		return hb_error_set("out of memory");
	for (a = 0; a < cat->nalgorithms; a++)
		if (S_selected(r->o->only, cat->algorithms[a].id))
			n += cat->algorithms[a].ninstances;
	/* a SUPERCOP implementation not for this machine is in its catalog entry, not in the plan */
	p->libs = calloc(n ? n : 1, sizeof(S_lib));
	if (!p->libs) {
		free(p);
		json_decref(all);
		json_decref(mine);
		return hb_error_set("out of memory");
	}
	for (a = 0; a < cat->nalgorithms; a++) {
		const hb_algorithm *alg = &cat->algorithms[a];
		if (!S_selected(r->o->only, alg->id))
			continue;
		for (k = 0; k < alg->ninstances; k++) {
			char *stem;
			if (alg->instances[k].supercop && alg->instances[k].supercop->not_run)
				continue;
			stem = hb_instance_stem(&alg->instances[k]);
			char *name = hb_sprintf("%s/%s", alg->id, stem);
			free(stem);
			json_array_append_new(all, json_string(name));
			if (r->o->shard_count &&
				S_shard_of(name, r->o->shard_count) != r->o->shard_index - 1) {
				free(name);
				continue;
			}
			json_array_append_new(mine, json_string(name));
			p->libs[p->nlibs].inst = &alg->instances[k];
			p->libs[p->nlibs].name = name;
			p->libs[p->nlibs].kat = "ERROR";
			p->nlibs++;
		}
	}
	if (r->o->shard_count)
		r->shard = json_pack("{s:i, s:i, s:o, s:o}", "index", (int)r->o->shard_index,
			"count", (int)r->o->shard_count, "libraries", mine, "plan", all);
	else {
		json_decref(all);
		json_decref(mine);
	}
	r->plan = p;
	S_anchor(r, p);
	r->total = p->nlibs * (1 + (size_t)r->prof->passes + r->nsizes) +
		(r->anchor ? p->nlibs - 1 : 0) * r->paired_passes;
	return 0;
}

/* ---- the tasks ---- */

/* The tasks, in order: each library's prepare task (build and KAT check); then rounds, each one
 * task of every library: the profile's passes and the paired passes (each library side by side
 * with the anchor) interleaved, spread evenly over the campaign so that the pairs see the host's
 * states the passes see, not only its last seconds (the first round a pass: it sets the calls per
 * block); then MAX_RETRIES rounds of passes measured again (run only for a library with that
 * many disturbed passes); then each library's records. With --overlap each library's first pass
 * follows its own prepare task. */
typedef enum { S_PREPARE, S_PASS, S_PAIRED, S_RECORDS } S_kind;

/* Of the profile's passes and the paired passes interleaved, what round k is: a paired pass when
 * it brings the count of paired rounds so far up by one (Bresenham's spacing), its number among
 * its kind into *pass. */
static S_kind S_round(const S_ctx *c, size_t k, int *pass)
{
	size_t p = (size_t)c->r->prof->passes, q = c->r->paired_passes, before, upto;
	if (k >= p + q) { /* the passes more, after both */
		*pass = (int)(k - q);
		return S_PASS;
	}
	before = k * q / (p + q);
	upto = (k + 1) * q / (p + q);
	*pass = (int)(upto > before ? before : k - before);
	return upto > before ? S_PAIRED : S_PASS;
}

static S_kind S_task_of(const S_ctx *c, size_t t, size_t *lib, int *pass)
{
	size_t n = c->r->plan->nlibs;
	*pass = -1;
	if (t < 2 * n && c->r->o->overlap) {
		*lib = t / 2;
		*pass = t % 2 ? 0 : -1;
		return t % 2 ? S_PASS : S_PREPARE;
	}
	*lib = t % n;
	if (t < n)
		return S_PREPARE;
	if (t < n + n * (c->npasses + c->r->paired_passes))
		return S_round(c, (t - n) / n, pass);
	return S_RECORDS;
}

/* The task t waits for: a library's first pass for its build (without --overlap, for every
 * build), each later pass and its records for its pass before. */
static ssize_t S_after(const S_ctx *c, size_t t)
{
	size_t n = c->r->plan->nlibs, lib;
	int pass;
	S_kind kind = S_task_of(c, t, &lib, &pass);
	if (kind == S_PREPARE)
		return -1;
	if (kind == S_PASS && pass == 0)
		return c->r->o->overlap ? (ssize_t)(2 * lib) : (ssize_t)n - 1;
	if (c->r->o->overlap && t < 3 * n) /* pass 2 after pass 1, at 2 * lib + 1 */
		return (ssize_t)(2 * lib + 1);
	return (ssize_t)(t - n);
}

static double S_seconds_since(uint64_t t0)
{
	return (double)(hb_now_ns() - t0) / 1e9;
}

static json_t *S_build_blob(const hb_build_result *b)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "library", b->library,
		"profile", b->profile, "cc", b->cc, "cflags", b->cflags, "command", b->command,
		"log", b->log ? b->log : "", "library_sha256", b->library_sha256);
}

static hb_build_result *S_build_from_blob(json_t *j)
{
	hb_build_result *b = calloc(1, sizeof(*b));
	const char *sha = json_string_value(json_object_get(j, "library_sha256"));
	if (!b)
		return NULL;
	b->library = hb_strdup(json_string_value(json_object_get(j, "library")));
	b->profile = hb_strdup(json_string_value(json_object_get(j, "profile")));
	b->cc = hb_strdup(json_string_value(json_object_get(j, "cc")));
	b->cflags = hb_strdup(json_string_value(json_object_get(j, "cflags")));
	b->command = hb_strdup(json_string_value(json_object_get(j, "command")));
	b->log = hb_strdup(json_string_value(json_object_get(j, "log")));
	snprintf(b->library_sha256, sizeof(b->library_sha256), "%s", sha ? sha : "");
	return b;
}

/* Builders keep off the timing CPUs while records are being timed, when other CPUs exist. */
static void S_keep_off_timing_cpus(const hb_run *r)
{
	cpu_set_t set;
	size_t i;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return;
	for (i = 0; i < r->ncpus; i++)
		CPU_CLR(r->cpus[i], &set);
	if (CPU_COUNT(&set) > 0)
		sched_setaffinity(0, sizeof(set), &set);
}

static int S_blob(hb_buf *out, json_t *j)
{
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (!text)
		return hb_error_set("out of memory");
	out->data = (unsigned char *)text;
	out->len = strlen(text);
	return 0;
}

static int S_prepare(hb_run *r, S_lib *lib, hb_buf *out)
{
	const hb_instance *inst = lib->inst;
	hb_build_result *b = NULL;
	uint64_t t0 = hb_now_ns(), t1;
	hb_elf_sizes sizes;
	const char *kat;
	json_t *j;

	if (r->o->overlap)
		S_keep_off_timing_cpus(r);
	if (inst->supercop) {
		t1 = t0;
		kat = hb_run_supercop(r, inst, &b);
		if (!b) /* no setting passed: nothing to time, as a library whose KAT failed */
			return S_blob(out, json_pack("{s:s, s:f, s:f}", "kat", kat, "build_s", 0.0, "kat_s",
				S_seconds_since(t0)));
		goto built;
	}
	if (hb_build(&b, inst, r->o->profiles, r->o->work) != 0) {
		char *msg = hb_strdup(hb_error_last());
		double build_s = S_seconds_since(t0);
		hb_note(r->o->progress, r->tty, "%s", msg);
		hb_run_kat(r, inst, NULL, msg);
		j = json_pack("{s:s, s:f, s:f}", "build_error", msg, "build_s", build_s, "kat_s", 0.0);
		free(msg);
		return S_blob(out, j);
	}
	t1 = hb_now_ns();
	kat = hb_run_kat(r, inst, b, NULL);
built:
	if (hb_elf_sizes_read(&sizes, b->library) != 0)
		hb_note(r->o->progress, r->tty, "%s", hb_error_last());
	j = json_pack("{s:s, s:o, s:I, s:I, s:I, s:f, s:f}", "kat", kat, "build", S_build_blob(b),
		"static_bytes", (json_int_t)sizes.total, "text_bytes", (json_int_t)sizes.text,
		"data_bytes", (json_int_t)sizes.data, "build_s", (double)(t1 - t0) / 1e9,
		"kat_s", S_seconds_since(t1));
	hb_build_result_free(b);
	return S_blob(out, j);
}

/* The sizes of lib a pass measures: those not kept and not yet failed. */
static size_t S_pass_sizes(const hb_run *r, const S_lib *lib, unsigned long long *sizes,
	unsigned long long *calls, int *have_calls)
{
	size_t i, n = 0;
	*have_calls = 1;
	for (i = 0; i < r->nsizes; i++) {
		char key[32];
		json_t *list, *e;
		size_t k;
		int failed = 0;
		unsigned long long c = 0;
		if (lib->kept[i])
			continue;
		snprintf(key, sizeof(key), "%llu", r->sizes[i]);
		list = json_object_get(lib->entries, key);
		json_array_foreach(list, k, e) {
			failed |= strcmp(json_string_value(json_object_get(e, "status")), "ok") != 0;
			if (!c)
				c = (unsigned long long)json_integer_value(json_object_get(json_object_get(e,
					"calibration"), "calls_per_round"));
		}
		if (failed)
			continue;
		if (!c)
			*have_calls = 0;
		sizes[n] = r->sizes[i];
		calls[n++] = c;
	}
	return n;
}

static int S_pass(hb_run *r, const S_lib *lib, int pass, int slot, hb_buf *out)
{
	unsigned long long sizes[NSIZES_MAX], calls[NSIZES_MAX];
	uint64_t t0 = hb_now_ns();
	int have_calls;
	size_t n = S_pass_sizes(r, lib, sizes, calls, &have_calls);
	json_t *entries;

	r->cpu = r->cpus[slot];
	r->sentinel_batch = json_array();
	entries = n ? hb_pass_run(r, lib->inst, lib->b, sizes, have_calls ? calls : NULL, n, pass) :
		json_object();
	/* the sentinel's readings go back to the parent, which keeps the campaign's trace */
	return S_blob(out, json_pack("{s:o, s:o, s:f}", "entries", entries, "sentinel",
		r->sentinel_batch, "timing_s", S_seconds_since(t0)));
}

/* Paired pass `pass` of lib with the anchor, over the sizes its ordinary passes measured. */
static int S_paired(hb_run *r, const S_lib *lib, int pass, int slot, hb_buf *out)
{
	unsigned long long sizes[NSIZES_MAX], calls[NSIZES_MAX];
	const S_lib *anchor = &r->plan->libs[r->plan->anchor];
	uint64_t t0 = hb_now_ns();
	int have_calls;
	size_t n = S_pass_sizes(r, lib, sizes, calls, &have_calls);
	json_t *j;

	r->cpu = r->cpus[slot];
	j = hb_paired_pass_run(r, lib->inst, lib->b, anchor->inst, anchor->b, sizes, n, pass);
	json_object_set_new(j, "timing_s", json_real(S_seconds_since(t0)));
	return S_blob(out, j);
}

static int S_records(hb_run *r, const S_lib *lib, int slot, hb_buf *out)
{
	json_t *statuses = json_array();
	size_t i, unstable = r->sum.unstable, remeasured = r->sum.remeasured,
		disturbed = r->sum.disturbed, wide = r->sum.wide;
	uint64_t t0 = hb_now_ns();

	r->cpu = r->cpus[slot];
	r->half_widths = json_array();
	for (i = 0; i < r->nsizes; i++) {
		char key[32];
		const char *status;
		snprintf(key, sizeof(key), "%llu", r->sizes[i]);
		if (lib->kept[i])
			status = "kept";
		else {
			json_t *paired = r->anchor ? hb_paired_record_json(r, lib->paired, r->anchor,
				r->sizes[i], lib->inst == r->anchor) : NULL;
			status = hb_run_record_write(r, lib->inst, lib->b, lib->kat, r->sizes[i],
				&lib->sizes, json_object_get(lib->entries, key), paired);
			json_decref(paired);
		}
		json_array_append_new(statuses, json_string(status));
	}
	return S_blob(out, json_pack("{s:o, s:I, s:I, s:I, s:I, s:o, s:f}", "statuses", statuses,
		"unstable", (json_int_t)(r->sum.unstable - unstable), "remeasured",
		(json_int_t)(r->sum.remeasured - remeasured), "disturbed",
		(json_int_t)(r->sum.disturbed - disturbed), "wide", (json_int_t)(r->sum.wide - wide),
		"half_widths", r->half_widths, "timing_s", S_seconds_since(t0)));
}

static int S_run_task(void *ctx, size_t t, int slot, hb_buf *result)
{
	S_ctx *c = ctx;
	size_t lib;
	int pass;
	S_kind kind;

	c->r->tty = 0; /* the parent draws the progress line; a task prints whole lines */
	kind = S_task_of(c, t, &lib, &pass);
	if (kind == S_PREPARE)
		return S_prepare(c->r, &c->r->plan->libs[lib], result);
	if (kind == S_PASS)
		return S_pass(c->r, &c->r->plan->libs[lib], pass, slot, result);
	if (kind == S_PAIRED)
		return S_paired(c->r, &c->r->plan->libs[lib], pass, slot, result);
	return S_records(c->r, &c->r->plan->libs[lib], slot, result);
}

/* Does a size of lib, still measured, want a pass more before pass `pass` (0-based)? Its
 * headline unconfirmed (within MAX_RETRIES passes more), or, with --precision, its interval
 * wider than asked, unconfirmed or not (within HB_PRECISION_ROUNDS times the profile's passes
 * more). */
static int S_wants_more(const hb_run *r, const S_lib *lib, int pass)
{
	const char *key;
	json_t *list, *e;
	json_object_foreach(lib->entries, key, list) {
		hb_interval iv;
		int failed = 0;
		size_t i;
		json_array_foreach(list, i, e)
			failed |= strcmp(json_string_value(json_object_get(e, "status")), "ok") != 0;
		if (failed || hb_interval_of(&iv, list, r->target_pct, &r->floor) != 0)
			continue;
		/* with --precision, any figure wider than asked, unconfirmed or not */
		if ((strcmp(iv.state, "unconfirmed") == 0 && pass < r->prof->passes + MAX_RETRIES) ||
			(r->o->precision_pct > 0 && iv.half_pct > r->o->precision_pct))
			return 1;
	}
	return 0;
}

static int S_skip_task(void *ctx, size_t t)
{
	S_ctx *c = ctx;
	const hb_run *r = c->r;
	unsigned long long sizes[NSIZES_MAX], calls[NSIZES_MAX];
	size_t li;
	int pass, have_calls;
	S_kind kind = S_task_of(c, t, &li, &pass);
	const S_lib *lib = &r->plan->libs[li];

	if (kind == S_PREPARE)
		return 0;
	if (!lib->timed)
		return 1;
	if (kind == S_RECORDS)
		return 0;
	if (kind == S_PAIRED)
		return !S_paired_tasks(r, lib) || !r->plan->libs[r->plan->anchor].timed ||
			S_pass_sizes(r, lib, sizes, calls, &have_calls) == 0;
	/* a pass more only for a library with a figure unconfirmed, or wider than --precision */
	if (pass >= r->prof->passes && !S_wants_more(r, lib, pass))
		return 1;
	return S_pass_sizes(r, lib, sizes, calls, &have_calls) == 0;
}

/* One line on the campaign's progress: this many of its steps done, the time since it started,
 * and about how long the rest will take, from the steps of each kind so far (eta.c). */
static void S_progress(S_ctx *c, const char *what, const char *result)
{
	char when[96];
	hb_eta_text(when, sizeof(when), &c->eta, S_seconds_since(c->r->t_start));
	hb_progress(c->r->o->progress, c->r->tty, c->r->done, c->r->total, what, result, when);
}

/* lib is not timed: its passes, paired passes and records done without running. */
static void S_untimed(S_ctx *c, const S_lib *lib)
{
	hb_run *r = c->r;
	r->done += (size_t)r->prof->passes + r->nsizes + S_paired_tasks(r, lib);
	hb_eta_drop(&c->eta, S_PASS, (size_t)r->prof->passes);
	hb_eta_drop(&c->eta, S_PAIRED, S_paired_tasks(r, lib));
	hb_eta_drop(&c->eta, S_RECORDS, r->nsizes);
}

static void S_prepared(S_ctx *c, S_lib *lib, json_t *j)
{
	hb_run *r = c->r;
	const char *kat = json_string_value(json_object_get(j, "kat"));
	char what[256];

	snprintf(what, sizeof(what), "%s (%s) KAT", lib->inst->name, lib->inst->impl);
	c->build_s += json_real_value(json_object_get(j, "build_s"));
	c->kat_s += json_real_value(json_object_get(j, "kat_s"));
	if (!kat || !json_is_object(json_object_get(j, "build"))) {
		/* a SUPERCOP implementation that no compiler setting built and checked: its KAT
		 * summary says which and why */
		int checked = kat != NULL;
		if (checked)
			c->out->kat_failed++;
		else
			c->out->build_failed++;
		r->done++;
		S_untimed(c, lib);
		S_progress(c, what, checked ? kat : "build failed");
		return;
	}
	lib->b = S_build_from_blob(json_object_get(j, "build"));
	lib->kat = hb_run_kat_result(kat);
	lib->sizes.total = (unsigned long long)json_integer_value(json_object_get(j, "static_bytes"));
	lib->sizes.text = (unsigned long long)json_integer_value(json_object_get(j, "text_bytes"));
	lib->sizes.data = (unsigned long long)json_integer_value(json_object_get(j, "data_bytes"));
	lib->timed = lib->b != NULL;
	lib->entries = json_object();
	if (!r->o->fresh && lib->b) {
		size_t i;
		for (i = 0; i < r->nsizes; i++) {
			char *path = hb_run_record_path(r, lib->inst, r->sizes[i]);
			lib->kept[i] = (unsigned char)hb_run_record_reusable(r, path, lib->b);
			free(path);
		}
	}
	r->done++;
	S_progress(c, what, lib->kat);
	if (strcmp(lib->kat, "UNVERIFIED") == 0) { /* timed, as SUPERCOP times its "unknown" */
		c->out->kat_unverified++;
	} else if (strcmp(lib->kat, "PASS") != 0) {
		c->out->kat_failed++;
		if (!r->o->time_failed) {
			hb_note(r->o->progress, r->tty, "%s (%s): KAT %s, not timed (--time-failed times it "
				"anyway)", lib->inst->name, lib->inst->impl, lib->kat);
			S_untimed(c, lib);
			lib->timed = 0;
		}
	}
}

/* A pass handed back: its entries joined to the library's, its disturbance counted. */
static void S_passed(S_ctx *c, S_lib *lib, int pass, json_t *j)
{
	hb_run *r = c->r;
	json_t *entries = json_object_get(j, "entries"), *e;
	const char *key;
	char what[256];
	int calm = 1, failed = 0;

	c->timing_s += json_real_value(json_object_get(j, "timing_s"));
	if (r->sentinel && json_is_array(json_object_get(j, "sentinel")))
		hb_sentinel_add(r->sentinel, json_object_get(j, "sentinel"));
	if (!json_is_object(entries)) {
		/* the worker died: every size it measured fails with it */
		size_t i;
		unsigned long long sizes[NSIZES_MAX], calls[NSIZES_MAX];
		int have_calls;
		size_t n = S_pass_sizes(r, lib, sizes, calls, &have_calls);
		entries = json_object();
		json_object_set_new(j, "entries", entries);
		for (i = 0; i < n; i++) {
			char k[32];
			snprintf(k, sizeof(k), "%llu", sizes[i]);
			json_object_set_new(entries, k, json_pack("{s:i, s:s, s:s}", "pass", pass + 1,
				"status", "error", "detail", "the campaign's worker died during the pass"));
		}
	}
	json_object_foreach(entries, key, e) {
		json_t *list = json_object_get(lib->entries, key);
		if (!list) {
			list = json_array();
			json_object_set_new(lib->entries, key, list);
		}
		json_array_append(list, e);
		if (strcmp(json_string_value(json_object_get(e, "status")), "ok") != 0)
			failed++;
		else if (!json_is_true(json_object_get(e, "calm")))
			calm = 0;
	}
	if (!calm) {
		lib->disturbed_passes++;
		c->out->passes_left_out++;
	}
	if (pass < r->prof->passes)
		r->done++;
	else {
		c->out->passes_more++;
		c->out->more_s += json_real_value(json_object_get(j, "timing_s"));
	}
	snprintf(what, sizeof(what), "%s (%s) pass %d%s", lib->inst->name, lib->inst->impl, pass + 1,
		pass < r->prof->passes ? "" : r->o->precision_pct > 0 ?
		" (more: a figure unconfirmed or wider than --precision)" :
		" (more: a figure not yet confirmed)");
	S_progress(c, what, failed ? "failed" : calm ? "calm" : "disturbed");
}

/* A paired pass handed back: its outcome kept for the records (a worker that died, as failed). */
static void S_paired_done(S_ctx *c, S_lib *lib, int pass, json_t *j)
{
	hb_run *r = c->r;
	const char *status = json_string_value(json_object_get(j, "status"));
	char what[256];

	c->timing_s += json_real_value(json_object_get(j, "timing_s"));
	if (!status) {
		json_object_set_new(j, "pass", json_integer(pass + 1));
		json_object_set_new(j, "status", json_string("error"));
		json_object_set_new(j, "detail", json_string("the campaign's worker died during the "
			"pass"));
	}
	json_object_del(j, "timing_s");
	if (!lib->paired)
		lib->paired = json_array();
	json_array_append(lib->paired, j);
	r->done++;
	snprintf(what, sizeof(what), "%s (%s) paired pass %d with %s (%s)", lib->inst->name,
		lib->inst->impl, pass + 1, r->anchor->name, r->anchor->impl);
	S_progress(c, what, status && strcmp(status, "ok") == 0 ? "ok" : "failed");
}

static void S_recorded(S_ctx *c, const S_lib *lib, json_t *j)
{
	hb_run *r = c->r;
	json_t *statuses = json_object_get(j, "statuses");
	size_t i;

	c->timing_s += json_real_value(json_object_get(j, "timing_s"));
	r->sum.unstable += (size_t)json_integer_value(json_object_get(j, "unstable"));
	r->sum.remeasured += (size_t)json_integer_value(json_object_get(j, "remeasured"));
	r->sum.disturbed += (size_t)json_integer_value(json_object_get(j, "disturbed"));
	r->sum.wide += (size_t)json_integer_value(json_object_get(j, "wide"));
	json_array_extend(c->half_widths, json_object_get(j, "half_widths"));
	for (i = 0; i < r->nsizes; i++) {
		const char *status = json_string_value(json_array_get(statuses, i));
		char what[256];
		if (!status)
			status = "error";
		if (strcmp(status, "kept") == 0)
			c->out->kept++;
		else if (strcmp(status, "ok") == 0)
			c->out->measured++;
		else
			c->out->failed_records++;
		snprintf(what, sizeof(what), "%s (%s) hash_%llu", lib->inst->name, lib->inst->impl,
			r->sizes[i]);
		r->done++;
		S_progress(c, what, status);
	}
	if (r->sentinel)
		hb_sentinel_count(r->sentinel, (size_t)json_integer_value(json_object_get(j,
			"disturbed")), (size_t)json_integer_value(json_object_get(j, "remeasured")));
}

static void S_task_done(void *ctx, size_t t, const hb_pool_result *res)
{
	S_ctx *c = ctx;
	hb_run *r = c->r;
	S_lib *lib;
	size_t li, steps;
	int pass;
	S_kind kind;
	json_t *j;

	kind = S_task_of(c, t, &li, &pass);
	lib = &r->plan->libs[li];
	if (res->skipped) {
		if ((kind == S_PASS && lib->timed && pass < r->prof->passes) ||
			(kind == S_PAIRED && lib->timed && S_paired_tasks(r, lib))) {
			r->done++;
			hb_eta_drop(&c->eta, kind, 1);
		}
		return;
	}
	if (r->tty && (res->err.len || res->out.len))
		fputs("\r\033[K", r->o->progress);
	hb_pool_replay(res, stdout, r->o->progress ? r->o->progress : stderr);
	j = res->data.len ? json_loads((const char *)res->data.data, 0, NULL) : NULL;
	if (!j) /* the worker died: count it as the step failing */
		j = json_object();
	/* its steps, and its share of the wall clock (eta.c): a pass more is outside the plan */
	steps = kind == S_RECORDS ? r->nsizes : kind == S_PASS && pass >= r->prof->passes ? 0 : 1;
	hb_eta_done(&c->eta, kind, steps, S_seconds_since(r->t_start));
	if (kind == S_PREPARE)
		S_prepared(c, lib, j);
	else if (kind == S_PASS)
		S_passed(c, lib, pass, j);
	else if (kind == S_PAIRED)
		S_paired_done(c, lib, pass, j);
	else
		S_recorded(c, lib, j);
	json_decref(j);
	if (kind == S_PREPARE && li + 1 == r->plan->nlibs)
		c->t_prepared = hb_now_ns();
}

/* The sentinel's first readings on each timing CPU: the campaign's reference until the passes
 * add theirs, and the machine's noise the limit is set from. */
static void S_watch_start(hb_run *r)
{
	size_t i;
	for (i = 0; i < r->ncpus; i++)
		if (hb_sentinel_calibrate(r->sentinel, r, r->cpus[i]) != 0) {
			/* without a reference no record is judged by it; say so, keep going */
			hb_note(r->o->progress, r->tty, "warning: %s: records on CPU %d are not watched",
				hb_error_last(), r->cpus[i]);
		}
	hb_sentinel_set_limit(r->sentinel);
	hb_note(r->o->progress, r->tty, "the sentinel's noise on this machine: %.2f %% (robust "
		"standard deviation); a pass more than %.1f %% off its median is measured again (%s)",
		hb_sentinel_noise_floor(r->sentinel), hb_sentinel_limit(r->sentinel),
		r->o->sentinel_limit_pct > 0 ? "--sentinel-limit" : "calibrated");
}

int hb_run_schedule(hb_campaign_summary *out, hb_run *r, const hb_catalog *cat)
{
	hb_run_plan *p = r->plan;
	hb_pool_fns fns = { S_run_task, S_task_done, S_skip_task };
	hb_pool_task *tasks;
	S_ctx c;
	unsigned slots[2];
	size_t a, i, n = p->nlibs, ntasks;
	uint64_t t0 = hb_now_ns();
	int rc = 0;

	memset(&c, 0, sizeof(c));
	c.r = r;
	c.out = out;
	/* passes more: MAX_RETRIES for unconfirmed figures; with --precision, up to
	 * HB_PRECISION_ROUNDS times the profile's passes again for wide ones */
	c.npasses = (size_t)r->prof->passes + (r->o->precision_pct > 0 &&
		HB_PRECISION_ROUNDS * r->prof->passes > MAX_RETRIES ?
		(size_t)(HB_PRECISION_ROUNDS * r->prof->passes) : MAX_RETRIES);
	c.half_widths = json_array();
	ntasks = n * (1 + c.npasses + r->paired_passes + 1);
	for (a = 0; a < cat->nalgorithms && rc == 0; a++) {
		int used = 0;
		for (i = 0; i < p->nlibs; i++)
			used |= p->libs[i].inst->algorithm == &cat->algorithms[a];
		/* a SUPERCOP primitive none of whose implementations may run here (tiger: Crypto++
		 * only) still gets its entry, which lists them with their reasons (once: shard 1) */
		if (!used && cat->algorithms[a].ninstances && cat->algorithms[a].instances[0].supercop &&
			S_selected(r->o->only, cat->algorithms[a].id) &&
			(!r->o->shard_count || r->o->shard_index == 1))
			used = 1;
		if (used && ((rc = hb_run_catalog_entry(r, &cat->algorithms[a])) != 0 ||
				(rc = hb_run_kat_manifest(r, &cat->algorithms[a])) != 0))
			return rc;
	}
	if (n == 0)
		return 0;
	S_watch_start(r);
	tasks = calloc(ntasks, sizeof(*tasks));
	if (!tasks)
		return hb_error_set("out of memory");
	for (i = 0; i < ntasks; i++) {
		size_t lib;
		int pass;
		tasks[i].cls = S_task_of(&c, i, &lib, &pass) == S_PREPARE ? 0 : 1;
		tasks[i].after = S_after(&c, i);
	}
	slots[0] = r->jobs;
	slots[1] = (unsigned)r->ncpus;
	hb_eta_start(&c.eta, S_seconds_since(r->t_start));
	hb_eta_plan(&c.eta, S_PREPARE, n);
	hb_eta_plan(&c.eta, S_PASS, n * (size_t)r->prof->passes);
	hb_eta_plan(&c.eta, S_PAIRED, (r->anchor ? n - 1 : 0) * r->paired_passes);
	hb_eta_plan(&c.eta, S_RECORDS, n * r->nsizes);
	rc = hb_pool_run(tasks, ntasks, slots, 2, &fns, &c);
	free(tasks);
	out->median_half_pct = hb_median_json(c.half_widths);
	out->target_pct = r->target_pct;
	json_decref(c.half_widths);
	hb_sentinel_warn(r->sentinel, r);
	if (!c.t_prepared)
		c.t_prepared = hb_now_ns();
	json_decref(r->durations);
	r->durations = json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "jobs", (int)r->jobs,
		"wall_s", S_seconds_since(t0), "prepare_wall_s", (double)(c.t_prepared - t0) / 1e9,
		"timing_wall_s", (double)(hb_now_ns() - c.t_prepared) / 1e9, "build_s", c.build_s,
		"kat_s", c.kat_s, "timing_s", c.timing_s);
	return rc;
}
