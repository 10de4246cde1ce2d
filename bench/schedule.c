/* schedule.c — the order of a campaign's work: which libraries this run (or shard) takes, their
 * builds and KAT checks in parallel worker processes, then their records timed one at a time
 * per timing CPU, everything reported and counted in the same order whatever the parallelism. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pool.h"
#include "run.h"

typedef struct {
	const hb_instance *inst;
	char *name;                   /* "<algorithm>/<stem>": its unit name in a shard plan */
	hb_build_result *b;           /* from its prepare task; NULL when the build failed */
	const char *kat;              /* "PASS", "FAIL" or "ERROR" */
	int timed;                    /* its records are to be measured */
	hb_elf_sizes sizes;           /* its static size and split */
} S_lib;

struct hb_run_plan {
	S_lib *libs;
	size_t nlibs;
};

typedef struct {
	hb_run *r;
	hb_campaign_summary *out;
	size_t per_lib;               /* tasks per library in the overlapping order: 1 + sizes */
	double build_s, kat_s, timing_s;
	uint64_t t_prepared;
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
	}
	free(p->libs);
	free(p);
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
			char *stem = hb_instance_stem(&alg->instances[k]);
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
	r->total = p->nlibs * (1 + r->nsizes);
	return 0;
}

/* ---- the tasks ---- */

/* Task t is library *lib's prepare task (build and KAT check) when *size is -1, else the record
 * of its size *size. Without --overlap all prepare tasks come first; with it, each library's
 * records follow its prepare task. */
static void S_task_of(const S_ctx *c, size_t t, size_t *lib, long *size)
{
	const hb_run_plan *p = c->r->plan;
	if (c->r->o->overlap) {
		*lib = t / c->per_lib;
		*size = (long)(t % c->per_lib) - 1;
	} else if (t < p->nlibs) {
		*lib = t;
		*size = -1;
	} else {
		*lib = (t - p->nlibs) / c->r->nsizes;
		*size = (long)((t - p->nlibs) % c->r->nsizes);
	}
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
	if (hb_build(&b, inst, r->o->profiles, r->o->work) != 0) {
		char *msg = hb_strdup(hb_error_last());
		double build_s = S_seconds_since(t0);
		hb_run_note(r, "%s", msg);
		hb_run_kat(r, inst, NULL, msg);
		j = json_pack("{s:s, s:f, s:f}", "build_error", msg, "build_s", build_s, "kat_s", 0.0);
		free(msg);
		return S_blob(out, j);
	}
	t1 = hb_now_ns();
	kat = hb_run_kat(r, inst, b, NULL);
	if (hb_elf_sizes_read(&sizes, b->library) != 0)
		hb_run_note(r, "%s", hb_error_last());
	j = json_pack("{s:s, s:o, s:I, s:I, s:I, s:f, s:f}", "kat", kat, "build", S_build_blob(b),
		"static_bytes", (json_int_t)sizes.total, "text_bytes", (json_int_t)sizes.text,
		"data_bytes", (json_int_t)sizes.data, "build_s", (double)(t1 - t0) / 1e9,
		"kat_s", S_seconds_since(t1));
	hb_build_result_free(b);
	return S_blob(out, j);
}

static int S_time(hb_run *r, const S_lib *lib, unsigned long long bytes, int slot, hb_buf *out)
{
	char *path = hb_run_record_path(r, lib->inst, bytes);
	const char *status;
	uint64_t t0 = hb_now_ns();
	size_t unstable = r->sum.unstable, remeasured = r->sum.remeasured,
		disturbed = r->sum.disturbed;

	r->cpu = r->cpus[slot];
	r->sentinel_batch = json_array();
	if (!r->o->fresh && hb_run_record_reusable(r, path, lib->b))
		status = "kept";
	else
		status = hb_run_measure(r, lib->inst, lib->b, lib->kat, bytes, &lib->sizes);
	free(path);
	/* the sentinel's readings go back to the parent, which keeps the campaign's trace */
	return S_blob(out, json_pack("{s:s, s:I, s:I, s:I, s:o, s:f}", "status", status, "unstable",
		(json_int_t)(r->sum.unstable - unstable), "remeasured",
		(json_int_t)(r->sum.remeasured - remeasured), "disturbed",
		(json_int_t)(r->sum.disturbed - disturbed), "sentinel", r->sentinel_batch,
		"timing_s", S_seconds_since(t0)));
}

static int S_run_task(void *ctx, size_t t, int slot, hb_buf *result)
{
	S_ctx *c = ctx;
	size_t lib;
	long size;

	c->r->tty = 0; /* the parent draws the progress line; a task prints whole lines */
	S_task_of(c, t, &lib, &size);
	if (size < 0)
		return S_prepare(c->r, &c->r->plan->libs[lib], result);
	return S_time(c->r, &c->r->plan->libs[lib], c->r->sizes[size], slot, result);
}

static int S_skip_task(void *ctx, size_t t)
{
	S_ctx *c = ctx;
	size_t lib;
	long size;
	S_task_of(c, t, &lib, &size);
	return size >= 0 && !c->r->plan->libs[lib].timed;
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
		c->out->build_failed++;
		r->done += 1 + r->nsizes;
		hb_run_progress(r, what, "build failed");
		return;
	}
	lib->b = S_build_from_blob(json_object_get(j, "build"));
	lib->kat = strcmp(kat, "PASS") == 0 ? "PASS" : strcmp(kat, "FAIL") == 0 ? "FAIL" : "ERROR";
	lib->sizes.total = (unsigned long long)json_integer_value(json_object_get(j, "static_bytes"));
	lib->sizes.text = (unsigned long long)json_integer_value(json_object_get(j, "text_bytes"));
	lib->sizes.data = (unsigned long long)json_integer_value(json_object_get(j, "data_bytes"));
	lib->timed = lib->b != NULL;
	r->done++;
	hb_run_progress(r, what, lib->kat);
	if (strcmp(lib->kat, "PASS") != 0) {
		c->out->kat_failed++;
		if (!r->o->time_failed) {
			hb_run_note(r, "%s (%s): KAT %s, not timed (--time-failed times it anyway)",
				lib->inst->name, lib->inst->impl, lib->kat);
			r->done += r->nsizes;
			lib->timed = 0;
		}
	}
}

static void S_timed(S_ctx *c, const S_lib *lib, unsigned long long bytes, json_t *j)
{
	hb_run *r = c->r;
	const char *status = json_string_value(json_object_get(j, "status"));
	char what[256];

	if (!status)
		status = "error";
	c->timing_s += json_real_value(json_object_get(j, "timing_s"));
	r->sum.unstable += (size_t)json_integer_value(json_object_get(j, "unstable"));
	r->sum.remeasured += (size_t)json_integer_value(json_object_get(j, "remeasured"));
	r->sum.disturbed += (size_t)json_integer_value(json_object_get(j, "disturbed"));
	if (r->sentinel && json_is_array(json_object_get(j, "sentinel"))) {
		hb_sentinel_add(r->sentinel, json_object_get(j, "sentinel"));
		hb_sentinel_count(r->sentinel, json_integer_value(json_object_get(j, "disturbed")) > 0,
			json_integer_value(json_object_get(j, "remeasured")) > 0);
	}
	if (strcmp(status, "kept") == 0)
		c->out->kept++;
	else if (strcmp(status, "ok") == 0)
		c->out->measured++;
	else
		c->out->failed_records++;
	snprintf(what, sizeof(what), "%s (%s) hash_%llu", lib->inst->name, lib->inst->impl, bytes);
	r->done++;
	hb_run_progress(r, what, status);
}

static void S_task_done(void *ctx, size_t t, const hb_pool_result *res)
{
	S_ctx *c = ctx;
	hb_run *r = c->r;
	S_lib *lib;
	size_t li;
	long size;
	json_t *j;

	S_task_of(c, t, &li, &size);
	lib = &r->plan->libs[li];
	if (res->skipped)
		return;
	if (r->tty && (res->err.len || res->out.len))
		fputs("\r\033[K", r->o->progress);
	hb_pool_replay(res, stdout, r->o->progress ? r->o->progress : stderr);
	j = res->data.len ? json_loads((const char *)res->data.data, 0, NULL) : NULL;
	if (!j) /* the worker died: count it as the step failing */
		j = json_pack(size < 0 ? "{}" : "{s:s}", "status", "error");
	if (size < 0)
		S_prepared(c, lib, j);
	else
		S_timed(c, lib, r->sizes[size], j);
	json_decref(j);
	if (size < 0 && (r->o->overlap ? li + 1 == r->plan->nlibs : t + 1 == r->plan->nlibs))
		c->t_prepared = hb_now_ns();
}

/* The sentinel's first readings on each timing CPU: the campaign's reference until the records
 * add theirs. */
static void S_watch_start(hb_run *r)
{
	size_t i;
	for (i = 0; i < r->ncpus; i++)
		if (hb_sentinel_calibrate(r->sentinel, r, r->cpus[i]) != 0) {
			/* without a reference no record is judged by it; say so, keep going */
			hb_run_note(r, "warning: %s: records on CPU %d are not watched", hb_error_last(),
				r->cpus[i]);
		}
}

int hb_run_schedule(hb_campaign_summary *out, hb_run *r, const hb_catalog *cat)
{
	hb_run_plan *p = r->plan;
	hb_pool_fns fns = { S_run_task, S_task_done, S_skip_task };
	hb_pool_task *tasks;
	S_ctx c;
	unsigned slots[2];
	size_t a, i, ntasks = p->nlibs * (1 + r->nsizes);
	uint64_t t0 = hb_now_ns();
	int rc = 0;

	memset(&c, 0, sizeof(c));
	c.r = r;
	c.out = out;
	c.per_lib = 1 + r->nsizes;
	for (a = 0; a < cat->nalgorithms && rc == 0; a++) {
		int used = 0;
		for (i = 0; i < p->nlibs; i++)
			used |= p->libs[i].inst->algorithm == &cat->algorithms[a];
		if (used && ((rc = hb_run_catalog_entry(r, &cat->algorithms[a])) != 0 ||
				(rc = hb_run_kat_manifest(r, &cat->algorithms[a])) != 0))
			return rc;
	}
	if (ntasks == 0)
		return 0;
	S_watch_start(r);
	tasks = calloc(ntasks, sizeof(*tasks));
	if (!tasks)
		return hb_error_set("out of memory");
	for (i = 0; i < ntasks; i++) {
		size_t lib;
		long size;
		S_task_of(&c, i, &lib, &size);
		tasks[i].cls = size < 0 ? 0 : 1;
		/* a record waits for its library; without --overlap, for every library */
		tasks[i].after = size < 0 ? -1 : r->o->overlap ? (ssize_t)(lib * c.per_lib) :
			(ssize_t)p->nlibs - 1;
	}
	slots[0] = r->jobs;
	slots[1] = (unsigned)r->ncpus;
	rc = hb_pool_run(tasks, ntasks, slots, 2, &fns, &c);
	free(tasks);
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
