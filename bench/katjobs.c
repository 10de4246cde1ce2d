/* katjobs.c — `kat-check` and `kat-gen` over many libraries at once: each library (kat-check) or
 * each KAT file (kat-gen) in its own worker process, N at a time, reported in catalog order so
 * the output is the same whatever N. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbbuild.h"
#include "hbcommands.h"
#include "hbkat.h"

typedef struct {
	const hb_katjobs_opts *o;
	const hb_instance *const *insts;
	char **libraries;    /* kat-gen: each instance's library, built before */
	hb_kat_set sets[HB_KAT_NSETS];
	size_t nsets;
	size_t failed;
	size_t unverified;
} S_ctx;

/* What one library's check came to. */
enum { S_FAILED = 0, S_OK = 1, S_UNVERIFIED = 2 };

/* A SUPERCOP implementation: not run here (with why), or each compiler setting tried and the
 * checksums of the one kept; S_OK when it passed or is not for this machine, S_UNVERIFIED when the
 * tree has no checksums to compare with. */
static int S_check_supercop(const hb_katjobs_opts *o, const hb_instance *inst)
{
	const hb_supercop_impl *sc = inst->supercop;
	hb_build_result *b = NULL;
	hb_sc_report rep;
	size_t k;
	int s;

	if (sc->not_run) {
		printf("%s (%s): NOT RUN: %s\n", inst->name, inst->impl, sc->not_run);
		fflush(stdout);
		return 1;
	}
	if (hb_sc_check(&rep, &b, inst, o->compilers, o->work, o->time_limit_s, NULL) != 0) {
		printf("%s (%s): ERROR: %s\n", inst->name, inst->impl, hb_error_last());
		return 0;
	}
	for (k = 0; rep.nsettings > 1 && k < rep.nsettings; k++) {
		const hb_sc_setting *st = &rep.settings[k];
		char turns[128] = "";
		if (st->ratio > 0)
			snprintf(turns, sizeof(turns), " (%.3f×, %.3f-%.3f, in turns%s)", st->ratio, st->low,
				st->high, (int)k == rep.chosen ? "; kept" : st->within_noise ?
				"; within noise of the kept" : "");
		printf("  %s: %s%s%s%s\n", st->compiler, st->result, turns, st->detail ? ": " : "",
			st->detail ? st->detail : "");
	}
	for (s = 0; s < 2; s++) {
		const hb_kat_file_result *f = &rep.rep.files[s];
		printf("  %s: %s (%.16s…, expected %.16s%s)%s%s\n", f->name, f->result,
			f->sha256[0] ? f->sha256 : "none",
			f->expected_sha256[0] ? f->expected_sha256 : "none", f->expected_sha256[0] ? "…" : "",
			f->detail ? ": " : "", f->detail ? f->detail : "");
	}
	{
		const hb_sc_setting *st = &rep.settings[rep.chosen >= 0 ? (size_t)rep.chosen :
			rep.nsettings - 1];
		const char *why = strcmp(rep.rep.result, "PASS") == 0 ? NULL :
			st->detail ? st->detail : rep.rep.detail;
		printf("%s (%s): %s with %s%s%s\n", inst->name, inst->impl, rep.rep.result,
			st->compiler, why ? ": " : "", why ? why : "");
	}
	fflush(stdout);
	s = strcmp(rep.rep.result, "PASS") == 0 ? S_OK : strcmp(rep.rep.result, "UNVERIFIED") == 0 ?
		S_UNVERIFIED : S_FAILED;
	hb_sc_report_clear(&rep);
	hb_build_result_free(b);
	return s;
}

/* One library: build, regenerate and compare; its lines on stdout. S_OK when it passed. */
static int S_check_one(const hb_katjobs_opts *o, const hb_instance *inst)
{
	hb_build_result *build = NULL;
	hb_kat_report rep;
	char *stem = hb_instance_stem(inst);
	char *dir = hb_sprintf("%s/kat/%s/%s", o->work, inst->algorithm->id, stem);
	int s, ok = 0;

	if (inst->supercop) {
		free(stem);
		free(dir);
		return S_check_supercop(o, inst);
	}
	if (hb_build(&build, inst, o->profiles, o->work) != 0) {
		/* the build's message starts with "name (impl): "; print it once */
		const char *msg = hb_error_last();
		char *prefix = hb_sprintf("%s (%s): ", inst->name, inst->impl);
		if (strncmp(msg, prefix, strlen(prefix)) == 0)
			msg += strlen(prefix);
		printf("%s (%s): ERROR: %s\n", inst->name, inst->impl, msg);
		free(prefix);
		goto out;
	}
	if (hb_kat_check(&rep, inst, build->library, o->sets, dir, o->time_limit_s, NULL) != 0) {
		printf("%s (%s): ERROR: %s\n", inst->name, inst->impl, hb_error_last());
		goto out;
	}
	for (s = 0; s < HB_KAT_NSETS; s++)
		if (rep.mask & (1u << s))
			printf("  %s: %s (%s)\n", rep.files[s].name, rep.files[s].result,
				rep.files[s].detail ? rep.files[s].detail : "");
	printf("%s (%s): %s%s%s\n", inst->name, inst->impl, rep.result,
		rep.detail ? ": " : "", rep.detail ? rep.detail : "");
	fflush(stdout);
	ok = strcmp(rep.result, "PASS") == 0;
	hb_kat_report_clear(&rep);
out:
	hb_build_result_free(build);
	free(stem);
	free(dir);
	return ok;
}

static int S_ok_blob(hb_buf *result, int ok)
{
	result->data = (unsigned char *)hb_strdup(ok == S_UNVERIFIED ? "unverified" : ok ? "ok" :
		"failed");
	result->len = strlen((char *)result->data);
	return 0;
}

static int S_check_task(void *ctx, size_t task, int slot, hb_buf *result)
{
	S_ctx *c = ctx;
	(void)slot;
	return S_ok_blob(result, S_check_one(c->o, c->insts[task]));
}

/* Replay a task's output; count it failed unless it said "ok" or "unverified". */
static void S_task_done(void *ctx, size_t task, const hb_pool_result *res)
{
	S_ctx *c = ctx;
	(void)task;
	hb_pool_replay(res, stdout, stderr);
	if (res->data.len && strcmp((const char *)res->data.data, "unverified") == 0)
		c->unverified++;
	else if (!res->data.len || strcmp((const char *)res->data.data, "ok") != 0)
		c->failed++;
}

static int S_run(S_ctx *c, size_t ntasks, int (*run)(void *, size_t, int, hb_buf *))
{
	hb_pool_fns fns = { run, S_task_done, NULL };
	hb_pool_task *tasks = calloc(ntasks ? ntasks : 1, sizeof(*tasks));
	unsigned slots = c->o->jobs ? c->o->jobs : hb_pool_default_jobs();
	size_t i;
	int rc;

	if (!tasks)
		return hb_error_set("out of memory");
	for (i = 0; i < ntasks; i++)
		tasks[i].after = -1;
	rc = hb_pool_run(tasks, ntasks, &slots, 1, &fns, c);
	free(tasks);
	return rc;
}

int hb_katjobs_check(size_t *out_failed, size_t *out_unverified, const hb_instance *const *insts,
	size_t n, const hb_katjobs_opts *o)
{
	S_ctx c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.o = o;
	c.insts = insts;
	*out_failed = 0;
	rc = 0;
	if (n == 1) { /* one library: no process of its own to wait for */
		int ok = S_check_one(o, insts[0]);
		c.failed = ok == S_FAILED;
		c.unverified = ok == S_UNVERIFIED;
	} else {
		rc = S_run(&c, n, S_check_task);
	}
	*out_failed = c.failed;
	*out_unverified = c.unverified;
	return rc;
}

static int S_gen_task(void *ctx, size_t task, int slot, hb_buf *result)
{
	S_ctx *c = ctx;
	const hb_instance *inst = c->insts[task / c->nsets];
	hb_kat_set set = c->sets[task % c->nsets];
	char *name = hb_sprintf("KAT_%s_%s.txt", hb_kat_set_name(set), inst->name);
	char *path = hb_path_join(c->o->out_dir, name);
	char sha[65];
	int ok = 0;

	(void)slot;
	if (hb_kat_generate_file(inst, c->libraries[task / c->nsets], set, path, c->o->time_limit_s,
			stderr) != 0 || hb_sha256_file(sha, path) != 0) {
		fprintf(stderr, "hashbench: %s (%s): %s: %s\n", inst->name, inst->impl, name,
			hb_error_last());
	} else {
		printf("%s  %s\n", sha, path);
		ok = 1;
	}
	free(name);
	free(path);
	return S_ok_blob(result, ok);
}

int hb_katjobs_generate(size_t *out_failed, const hb_instance *const *insts, size_t n,
	const hb_katjobs_opts *o)
{
	S_ctx c;
	size_t i;
	int s, rc = 0;

	memset(&c, 0, sizeof(c));
	c.o = o;
	c.insts = insts;
	*out_failed = 0;
	for (s = 0; s < HB_KAT_NSETS; s++)
		if ((o->sets ? o->sets : (1u << HB_KAT_NSETS) - 1) & (1u << s))
			c.sets[c.nsets++] = (hb_kat_set)s;
	c.libraries = calloc(n ? n : 1, sizeof(char *));
	if (!c.libraries || hb_mkdir_p(o->out_dir) != 0) {
		rc = c.libraries ? HB_ERROR : hb_error_set("out of memory");
		goto out;
	}
	/* the builds first, one after another: a library is built once for all its sets */
	for (i = 0; i < n; i++) {
		hb_build_result *b = NULL;
		if ((rc = hb_build(&b, insts[i], o->profiles, o->work)) != 0)
			goto out;
		c.libraries[i] = hb_strdup(b->library);
		hb_build_result_free(b);
	}
	rc = S_run(&c, n * c.nsets, S_gen_task);
	*out_failed = c.failed;
out:
	for (i = 0; c.libraries && i < n; i++)
		free(c.libraries[i]);
	free(c.libraries);
	return rc;
}
