/* supercop_check.c — correctness by SUPERCOP's own procedure: the tree's try.c and try-anything.c
 * built with an implementation (and with what it calls, each chosen by the same procedure), run in
 * the sandbox, their checksums compared with the primitive's checksumsmall and checksumbig; over
 * several compiler lines, the fastest that passes is kept, as SUPERCOP keeps it. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hbbuild.h"
#include "hbkat.h"

#define S_TRY_LIMIT 600

/* What one try program printed: its checksum and the median cycles of its timing. */
typedef struct {
	char checksum[65];
	long long cycles;
	const char *result; /* PASS, FAIL, ERROR */
	char *detail;
} S_try;

/* Run prog in the sandbox and read its line: "<checksum> <cycles> <checksumcycles> …". */
static void S_run_try(S_try *t, const char *prog, unsigned limit, FILE *log)
{
	hb_child c;
	char *argv[2] = { (char *)prog, NULL }, *line, *save = NULL, *copy;

	memset(t, 0, sizeof(*t));
	t->cycles = -1;
	t->result = "ERROR";
	if (hb_sandbox_exec(&c, prog, limit ? limit : S_TRY_LIMIT, argv) != 0) {
		t->detail = hb_strdup(hb_error_last());
		return;
	}
	if (log)
		fprintf(log, "%s: %s%s", strrchr(prog, '/') + 1, c.output ? c.output : "",
			c.output && c.output_len && c.output[c.output_len - 1] != '\n' ? "\n" : "");
	copy = hb_strdup(c.output ? c.output : "");
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strspn(line, "0123456789abcdef");
		if (n == 64 && line[64] == ' ') {
			memcpy(t->checksum, line, 64);
			t->cycles = atoll(line + 65);
			break;
		}
	}
	if (c.status != HB_CHILD_OK) {
		char *why = hb_child_describe(&c), *first = NULL;
		/* try.c says what went wrong on stderr before it exits 111 */
		for (line = strtok_r(hb_strdup(c.output ? c.output : ""), "\n", &save); line && !first;
			line = strtok_r(NULL, "\n", &save))
			if (strspn(line, "0123456789abcdef") != 64)
				first = hb_strdup(line);
		if (c.status == HB_CHILD_CRASH && c.code == 4) /* SIGILL */
			t->detail = hb_sprintf("needs a CPU feature this machine lacks (%s)", why);
		else
			t->detail = first ? hb_sprintf("%s (%s)", first, why) : hb_strdup(why);
		free(first);
		free(why);
	} else if (!t->checksum[0]) {
		t->detail = hb_strdup("printed no checksum");
	} else {
		t->result = "PASS";
	}
	free(copy);
	hb_child_clear(&c);
}

/* Whether a try program ran and printed its checksum: PASS, or UNVERIFIED when the tree has no
 * checksum to compare it with. */
static int S_ran(const char *result)
{
	return strcmp(result, "PASS") == 0 || strcmp(result, "UNVERIFIED") == 0;
}

/* Compare with the expected checksum; without one (the tree has none) nothing is verified:
 * UNVERIFIED, SUPERCOP's "unknown". */
static void S_judge(S_try *t, const char *expected, const char *which)
{
	if (strcmp(t->result, "PASS") != 0)
		return;
	if (!expected) {
		t->result = "UNVERIFIED";
		t->detail = hb_sprintf("the tree has no %s to compare with (SUPERCOP: unknown)", which);
	} else if (strcmp(t->checksum, expected) != 0) {
		t->result = "FAIL";
		t->detail = hb_sprintf("%s %.16s… differs from the tree's %.16s…", which, t->checksum,
			expected);
	}
}

static char *S_file_line(const char *dir, const char *name)
{
	char *p = hb_path_join(dir, name), *real = hb_supercop_follow(p), *s = NULL;
	hb_buf b;
	size_t n;
	if (hb_is_file(real) && hb_file_read_raw(&b, real) == 0) {
		n = strcspn((char *)b.data, "\r\n");
		s = strndup((char *)b.data, n < b.len ? n : b.len);
		hb_buf_free(&b);
	}
	free(p);
	free(real);
	return s;
}

/* Build and check one target with one compiler line: the unit, both try results. */
static hb_sc_unit *S_try_target(S_try *small, S_try *big, const hb_sc_target *t,
	const char *compiler, const char *work, unsigned limit, FILE *log)
{
	char *pdir = hb_sprintf("%s/%s/%s", t->tree, t->operation, t->primitive);
	char *exp_small = S_file_line(pdir, "checksumsmall"), *exp_big = S_file_line(pdir,
		"checksumbig");
	hb_sc_unit *u = NULL;

	memset(small, 0, sizeof(*small));
	memset(big, 0, sizeof(*big));
	small->result = big->result = "ERROR";
	small->cycles = big->cycles = -1;
	hb_sc_compile(&u, t, compiler, work);
	if (log)
		fprintf(log, "%s with %s:\n%s", t->path, compiler, u && u->log ? u->log : "");
	if (!u || u->error) {
		small->detail = hb_strdup(u && u->error ? u->error : "out of memory");
		big->detail = hb_strdup(small->detail);
	} else {
		S_run_try(small, u->try_small, limit, log);
		S_judge(small, exp_small, "checksumsmall");
		if (S_ran(small->result)) {
			S_run_try(big, u->try_big, limit, log);
			S_judge(big, exp_big, "checksumbig");
		} else {
			big->detail = hb_strdup("not run: checksumsmall did not pass");
		}
	}
	free(pdir);
	free(exp_small);
	free(exp_big);
	return u;
}

/* What inst calls (crypto_hashblocks/sha256, …): for each, the implementation of that primitive
 * that passes its own checksums fastest with this compiler line. dirs and objs get its headers'
 * folder and its archive; 0, or the reason none could be used in *why. */
static int S_deps(hb_strlist *dirs, hb_strlist *objs, char **why, const hb_supercop_impl *sc,
	const char *compiler, int pic, const char *work, unsigned limit, FILE *log)
{
	size_t n, i;
	for (n = 0; sc->needs[n]; n++) {
		char *pdir = hb_path_join(sc->tree, sc->needs[n]), **impls = NULL;
		char *op = strndup(sc->needs[n], strcspn(sc->needs[n], "/"));
		const char *prim = strchr(sc->needs[n], '/') + 1;
		hb_sc_unit *best = NULL;
		long long best_cycles = 0;
		hb_supercop_impls(&impls, pdir);
		for (i = 0; impls && impls[i]; i++) {
			char *dir = hb_path_join(pdir, impls[i]), sha[65];
			char *path = hb_sprintf("%s/%s", sc->needs[n], impls[i]);
			hb_sc_target t = { sc->tree, op, prim, path, sha, NULL, NULL, pic };
			S_try small, big;
			hb_sc_unit *u;
			if (!hb_supercop_for_this_abi(dir) || hb_supercop_sources_sha256(sha, dir) != 0) {
				free(dir);
				free(path);
				continue;
			}
			u = S_try_target(&small, &big, &t, compiler, work, limit, log);
			if (log)
				fprintf(log, "%s: %s%s%s\n", path, big.result, big.detail ? ": " : "",
					big.detail ? big.detail : "");
			if (S_ran(big.result) && (!best || big.cycles < best_cycles)) {
				hb_sc_unit_free(best);
				best = u;
				best_cycles = big.cycles;
				u = NULL;
			}
			hb_sc_unit_free(u);
			free(small.detail);
			free(big.detail);
			free(dir);
			free(path);
		}
		hb_strv_free(impls);
		free(pdir);
		free(op);
		if (!best) {
			*why = hb_sprintf("no implementation of %s that it calls passes its checksums "
				"with %s", sc->needs[n], compiler);
			return HB_ERROR;
		}
		hb_strlist_add(dirs, hb_strdup(best->dir));
		hb_strlist_add(objs, hb_strdup(best->archive));
		hb_sc_unit_free(best);
	}
	return 0;
}

/* SUPERCOP's own libraries that sc links (libkeccak.a, libcryptopp.a), built from the tree:
 * their headers' folders into dirs, their archives into objs; 0, or the reason in *why. */
static int S_libs(hb_strlist *dirs, hb_strlist *objs, char **why, const hb_supercop_impl *sc,
	const char *work, FILE *log)
{
	size_t i;
	for (i = 0; sc->libs && sc->libs[i]; i++) {
		hb_sc_lib l;
		int rc = hb_sc_lib_build(&l, sc->tree, sc->libs[i], work);
		if (log)
			fprintf(log, "SUPERCOP's %s: %s\n", sc->libs[i], rc == 0 ? l.archive : l.error);
		if (rc != 0) {
			*why = hb_strdup(l.error ? l.error : sc->libs[i]);
			hb_sc_lib_clear(&l);
			return HB_ERROR;
		}
		hb_strlist_add(dirs, hb_strdup(l.include_dir));
		hb_strlist_add(objs, hb_strdup(l.archive));
		hb_sc_lib_clear(&l);
	}
	return 0;
}

static void S_setting_fill(hb_sc_setting *s, const S_try *small, const S_try *big)
{
	/* the first that did not run, else UNVERIFIED if either had nothing to compare with */
	const S_try *which = !S_ran(small->result) ? small : !S_ran(big->result) ? big :
		strcmp(small->result, "UNVERIFIED") == 0 ? small : big;
	s->result = which->result;
	s->detail = hb_strdup(which->detail);
	memcpy(s->small, small->checksum, 65);
	memcpy(s->big, big->checksum, 65);
	s->cycles = big->cycles;
}

/* The report's two "files" (checksumsmall, checksumbig) from the setting kept, or the last. */
static void S_report_files(hb_sc_report *out, const hb_supercop_impl *sc, const S_try *small,
	const S_try *big)
{
	hb_kat_file_result *f = out->rep.files;
	f[0].name = hb_strdup("checksumsmall");
	f[1].name = hb_strdup("checksumbig");
	memcpy(f[0].sha256, small->checksum, 65);
	memcpy(f[1].sha256, big->checksum, 65);
	snprintf(f[0].expected_sha256, 65, "%s", sc->expected_small ? sc->expected_small : "");
	snprintf(f[1].expected_sha256, 65, "%s", sc->expected_big ? sc->expected_big : "");
	f[0].entries = 64;
	f[1].entries = 512;
	f[0].result = small->result;
	f[1].result = !S_ran(small->result) && !big->checksum[0] ? "SKIPPED" :
		big->result;
	f[0].detail = small->detail ? hb_strdup(small->detail) : NULL;
	f[1].detail = big->detail ? hb_strdup(big->detail) : NULL;
	out->rep.mask = 3;
}

/* One compiler setting: what inst calls, then inst itself, built and checked (pic: with -fPIC
 * after the line); the unit (NULL when what it calls failed), dirs and objs what it calls. */
static hb_sc_unit *S_setting(S_try *small, S_try *big, hb_strlist *dirs, hb_strlist *objs,
	const hb_supercop_impl *sc, const char *compiler, int pic, const char *work, unsigned limit,
	FILE *log)
{
	hb_sc_target t = { sc->tree, sc->operation, sc->primitive, sc->path, sc->sources_sha256,
		NULL, NULL, pic };
	char *why = NULL;

	if (S_deps(dirs, objs, &why, sc, compiler, pic, work, limit, log) != 0 ||
		S_libs(dirs, objs, &why, sc, work, log) != 0) {
		memset(small, 0, sizeof(*small));
		memset(big, 0, sizeof(*big));
		small->result = big->result = "ERROR";
		small->cycles = big->cycles = -1;
		small->detail = why;
		big->detail = hb_strdup(why);
		return NULL;
	}
	t.dep_dirs = dirs->v;
	t.dep_objects = objs->v;
	return S_try_target(small, big, &t, compiler, work, limit, log);
}

/* The setting kept passes as SUPERCOP builds it, but its objects (-fPIE) cannot go into a shared
 * library: build it again with -fPIC after the line, check that again, and make the library of
 * that. 0 with *out_build, else the reason in out->rep.detail. */
static int S_library_pic(hb_sc_report *out, hb_build_result **out_build,
	const hb_supercop_impl *sc, const char *compiler, const char *work, unsigned limit, FILE *log)
{
	hb_strlist dirs = { 0 }, objs = { 0 };
	S_try small, big;
	hb_sc_unit *u;
	char *first = hb_strdup(hb_error_last());
	int rc = HB_ERROR;

	if (log)
		fprintf(log, "%s\nbuilding again with -fPIC after the line, for the library\n", first);
	u = S_setting(&small, &big, &dirs, &objs, sc, compiler, 1, work, limit, log);
	if (u && S_ran(small.result) && S_ran(big.result)) {
		hb_sc_target t = { sc->tree, sc->operation, sc->primitive, sc->path, sc->sources_sha256,
			dirs.v, objs.v, 1 };
		if (hb_sc_library(out_build, u, &t, work) == 0)
			rc = 0;
		else
			out->rep.detail = hb_strdup(hb_error_last());
	} else {
		out->rep.detail = hb_sprintf("%s; built again with -fPIC its checksums do not pass: %s",
			first, small.detail ? small.detail : big.detail ? big.detail : "");
	}
	free(small.detail);
	free(big.detail);
	free(first);
	hb_sc_unit_free(u);
	hb_strv_free(hb_strlist_take(&dirs));
	hb_strv_free(hb_strlist_take(&objs));
	return rc;
}

/* A compiler line tried: what it built and what its try programs printed. */
typedef struct {
	hb_sc_unit *u;            /* its objects and try programs, while it may be kept */
	hb_strlist dirs, objs;    /* what it links in of the primitives it calls */
	S_try small, big;
} S_line;

static void S_line_clear(S_line *l)
{
	hb_sc_unit_free(l->u);
	hb_strv_free(hb_strlist_take(&l->dirs));
	hb_strv_free(hb_strlist_take(&l->objs));
	free(l->small.detail);
	free(l->big.detail);
	memset(l, 0, sizeof(*l));
}

typedef struct {
	S_line *lines;
	unsigned limit;
	FILE *log;
} S_pick_ctx;

/* One more run of a line's try program (checksumbig's): its median cycles, -1 when it failed. */
static double S_time_one(void *ctx, size_t line)
{
	S_pick_ctx *c = ctx;
	S_try t;
	double cycles;
	S_run_try(&t, c->lines[line].u->try_big, c->limit, c->log);
	cycles = strcmp(t.checksum, c->lines[line].big.checksum) == 0 ? (double)t.cycles : -1;
	free(t.detail);
	return cycles;
}

/* Of the lines that pass, the one to keep: with two or more, timed in turns (supercop_pick.c),
 * each setting's ratio and whether it is within noise of the one kept into out. */
static int S_choose(hb_sc_report *out, S_line *lines, size_t n, unsigned limit, FILE *log)
{
	hb_sc_pick_line *pl = calloc(n ? n : 1, sizeof(*pl));
	S_pick_ctx ctx = { lines, limit, log };
	hb_sc_pick_fns fns = { S_time_one, &ctx };
	size_t k, passing = 0, only = 0;
	int kept;

	if (!pl)
		abort();
	for (k = 0; k < n; k++) {
		pl[k].passes = S_ran(out->settings[k].result);
		pl[k].cycles = (double)out->settings[k].cycles;
		if (pl[k].passes) {
			passing++;
			only = k;
		}
	}
	if (passing < 2) {
		free(pl);
		return passing ? (int)only : -1;
	}
	kept = hb_sc_pick(pl, n, &fns, HB_SC_PICK_ROUNDS, HB_SC_PICK_NOISE_PCT);
	for (k = 0; k < n; k++) {
		out->settings[k].ratio = pl[k].ratio;
		out->settings[k].low = pl[k].low;
		out->settings[k].high = pl[k].high;
		out->settings[k].rounds = pl[k].rounds;
		out->settings[k].within_noise = pl[k].within_noise;
		if (log && pl[k].ratio > 0)
			fprintf(log, "%s: %.4f (%.4f-%.4f) of the fastest by try's median, %zu rounds in "
				"turns%s\n", out->settings[k].compiler, pl[k].ratio, pl[k].low, pl[k].high,
				pl[k].rounds, (int)k == kept ? ", kept" : pl[k].within_noise ?
				", within noise of the line kept" : "");
	}
	free(pl);
	return kept;
}

/* The report's detail on the line kept: of how many, and which are within noise of it. */
static char *S_kept_detail(const hb_sc_report *out, size_t n)
{
	char *d = hb_sprintf("kept of %zu compiler settings that %s (the fastest, or the first "
		"within noise of it): %s", n, strcmp(out->rep.result, "PASS") == 0 ? "pass" :
		"run", out->settings[out->chosen].compiler);
	size_t k, near = 0;
	for (k = 0; k < n; k++)
		near += out->settings[k].within_noise;
	if (near) {
		char *more = hb_sprintf("%s; within noise of it (± %g %%, timed in turns): %zu", d,
			HB_SC_PICK_NOISE_PCT, near);
		free(d);
		d = more;
		for (k = 0; k < n; k++)
			if (out->settings[k].within_noise) {
				more = hb_sprintf("%s; %s", d, out->settings[k].compiler);
				free(d);
				d = more;
			}
	}
	return d;
}

int hb_sc_check(hb_sc_report *out, hb_build_result **out_build, const hb_instance *inst,
	const char *compilers_file, const char *work, unsigned limit, FILE *log)
{
	const hb_supercop_impl *sc = inst->supercop;
	char **compilers = hb_sc_compilers(compilers_file, sc->tree,
		strcmp(sc->language, "cpp") == 0 ? "cpp" : "c");
	S_line *lines;
	size_t k, n = 0;

	memset(out, 0, sizeof(*out));
	*out_build = NULL;
	out->chosen = -1;
	if (!compilers)
		return HB_ERROR;
	while (compilers[n])
		n++;
	out->settings = calloc(n + 1, sizeof(hb_sc_setting));
	lines = calloc(n + 1, sizeof(S_line));
	if (!out->settings || !lines)
		abort();
	out->nsettings = n;
	for (k = 0; k < n; k++) {
		S_line *l = &lines[k];
		l->u = S_setting(&l->small, &l->big, &l->dirs, &l->objs, sc, compilers[k], 0, work, limit,
			log);
		out->settings[k].compiler = hb_strdup(compilers[k]);
		out->settings[k].ratio = out->settings[k].low = out->settings[k].high = -1;
		S_setting_fill(&out->settings[k], &l->small, &l->big);
		if (log)
			fprintf(log, "%s with %s: %s%s%s\n", sc->path, compilers[k], out->settings[k].result,
				out->settings[k].detail ? ": " : "", out->settings[k].detail ?
				out->settings[k].detail : "");
		if (!S_ran(out->settings[k].result)) {
			/* only what a line that may be kept needs is kept */
			hb_sc_unit_free(l->u);
			l->u = NULL;
		}
	}
	out->chosen = S_choose(out, lines, n, limit, log);
	if (out->chosen >= 0) {
		S_line *best = &lines[out->chosen];
		hb_sc_target t = { sc->tree, sc->operation, sc->primitive, sc->path, sc->sources_sha256,
			best->dirs.v, best->objs.v, 0 };
		S_report_files(out, sc, &best->small, &best->big);
		if (hb_sc_library(out_build, best->u, &t, work) != 0 &&
			S_library_pic(out, out_build, sc, compilers[out->chosen], work, limit, log) != 0) {
			out->rep.result = "ERROR";
		} else {
			/* PASS, or UNVERIFIED: built, run and timed as SUPERCOP times it, never "passed" */
			out->rep.result = out->settings[out->chosen].result;
			if (n > 1)
				out->rep.detail = S_kept_detail(out, n);
			if (strcmp(out->rep.result, "UNVERIFIED") == 0) {
				char *d = hb_sprintf("%s%s%s", out->settings[out->chosen].detail,
					out->rep.detail ? "; " : "", out->rep.detail ? out->rep.detail : "");
				free(out->rep.detail);
				out->rep.detail = d;
			}
		}
	} else {
		const hb_sc_setting *s = &out->settings[n - 1];
		S_report_files(out, sc, &lines[n - 1].small, &lines[n - 1].big);
		out->rep.result = strcmp(s->result, "FAIL") == 0 ? "FAIL" : "ERROR";
		out->rep.detail = n > 1 ? hb_sprintf("no compiler setting of %zu passes; with %s: %s",
			n, s->compiler, s->detail ? s->detail : s->result) :
			hb_sprintf("with %s: %s", s->compiler, s->detail ? s->detail : s->result);
	}
	for (k = 0; k < n; k++)
		S_line_clear(&lines[k]);
	free(lines);
	hb_strv_free(compilers);
	return 0;
}

void hb_sc_report_clear(hb_sc_report *r)
{
	size_t i;
	for (i = 0; i < r->nsettings; i++) {
		free(r->settings[i].compiler);
		free(r->settings[i].detail);
	}
	free(r->settings);
	hb_kat_report_clear(&r->rep);
	memset(r, 0, sizeof(*r));
}
