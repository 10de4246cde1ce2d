/* compare_cmd.c — `hashbench compare A B`: two libraries timed side by side on one CPU, their
 * drivers taking turns block by block (duet.c) over several passes, each with placements of its
 * own; at each size both figures, the ratio A/B with its 95 % interval from the pairs (paired.c)
 * and a verdict, as text and as JSON evidence. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "hbcampaign.h"
#include "hbcommands.h"

/* A and B found and built: what the passes run and the output names. */
typedef struct {
	hb_catalog *cat[2];
	const hb_instance *inst[2];
	hb_build_result *build[2];
	char *label[2];       /* "SHA-256 (reference)" */
} S_sides;

static int S_sides_build(S_sides *sd, const hb_compare_opts *o)
{
	int s;
	memset(sd, 0, sizeof(*sd));
	for (s = 0; s < 2; s++) {
		if (hb_catalog_open(&sd->cat[s], o->submissions[s], o->supercop) != 0 ||
			hb_catalog_find(&sd->inst[s], sd->cat[s], o->spec[s]) != 0 ||
			hb_build(&sd->build[s], sd->inst[s], o->profiles, o->work) != 0) {
			char *e = hb_strdup(hb_error_last());
			/* the side named once: the catalog's message names it already */
			int rc = strncmp(e, o->spec[s], strlen(o->spec[s])) == 0 ? HB_ERROR :
				hb_error_set("%s: %s", o->spec[s], e);
			free(e);
			return rc;
		}
		sd->label[s] = hb_sprintf("%s (%s)", sd->inst[s]->name, sd->inst[s]->impl);
	}
	return 0;
}

static void S_sides_free(S_sides *sd)
{
	int s;
	for (s = 0; s < 2; s++) {
		hb_build_result_free(sd->build[s]);
		hb_catalog_free(sd->cat[s]);
		free(sd->label[s]);
	}
}

typedef struct {
	unsigned long long bytes;
	double *a[HB_COMPARE_MAX_PASSES], *b[HB_COMPARE_MAX_PASSES]; /* each pair's two blocks */
	size_t npairs[HB_COMPARE_MAX_PASSES];
	double best[2];   /* each side's fastest block, cycles per call */
	hb_paired paired;
} S_size;

/* The pairs of one pass at one size: block k of A against block k of B, timed one after the
 * other; a block the host held up shows in one ratio, which the median passes over. */
static void S_pair(S_size *z, size_t pass, json_t *const result[2], unsigned rounds)
{
	size_t s, k;
	z->a[pass] = calloc(rounds + 1, sizeof(double));
	z->b[pass] = calloc(rounds + 1, sizeof(double));
	if (!z->a[pass] || !z->b[pass])
		abort();
	z->npairs[pass] = hb_paired_pairs(z->a[pass], z->b[pass], rounds, result[0], result[1],
		z->bytes);
	for (k = 0; k < z->npairs[pass]; k++)
		for (s = 0; s < 2; s++) {
			double t = s ? z->b[pass][k] : z->a[pass][k];
			if (z->best[s] <= 0 || t < z->best[s])
				z->best[s] = t;
		}
}

static json_t *S_side_json(const S_sides *sd, int s)
{
	char hex[65] = "";
	json_t *j = json_pack("{s:s, s:s, s:s, s:i}", "label", sd->label[s], "instance",
		sd->inst[s]->name, "implementation", sd->inst[s]->impl, "digest_bits",
		sd->inst[s]->digest_bits);
	json_object_set_new(j, "library", json_string(sd->build[s]->library));
	if (hb_sha256_file(hex, sd->build[s]->library) == 0)
		json_object_set_new(j, "library_sha256", json_string(hex));
	return j;
}

static json_t *S_size_json(const S_size *z)
{
	json_t *pairs = json_array(), *blocks = json_array();
	size_t p, i;
	for (p = 0; p < z->paired.passes; p++) {
		json_t *one = json_array(), *bl = json_pack("{s:[], s:[]}", "a", "b");
		for (i = 0; i < z->npairs[p]; i++) {
			json_array_append_new(one, json_real(z->a[p][i] / z->b[p][i]));
			json_array_append_new(json_object_get(bl, "a"), json_real(z->a[p][i]));
			json_array_append_new(json_object_get(bl, "b"), json_real(z->b[p][i]));
		}
		json_array_append_new(pairs, one);
		json_array_append_new(blocks, bl);
	}
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:I, s:f, s:I, s:s, s:o, "
		"s:o}", "bytes", (json_int_t)z->bytes, "a_cycles_per_call", z->best[0],
		"b_cycles_per_call", z->best[1],
		"a_cycles_per_byte", z->best[0] / (double)z->bytes, "b_cycles_per_byte",
		z->best[1] / (double)z->bytes, "ratio", z->paired.ratio, "ratio_low", z->paired.low,
		"ratio_high", z->paired.high, "verdict", z->paired.verdict, "pairs",
		(json_int_t)z->paired.pairs, "fastest_fraction", z->paired.fastest, "bootstrap_seed",
		(json_int_t)(z->paired.seed >> 1), "bootstrap", z->paired.bootstrap, "pair_ratios",
		pairs, "pair_blocks", blocks);
}

/* One pass: the two drivers taking turns, A leading in even passes and B in odd ones so that
 * neither always goes first; their outcomes into passes (evidence), their pairs into sizes. */
static int S_pass(json_t *passes, S_size *sizes, size_t nsizes, const hb_compare_opts *o,
	const S_sides *sd, const hb_driver_setup *setup, const char *bytes, unsigned long long seed,
	size_t p)
{
	hb_duet_lib lib[2];
	hb_duet_side side[2];
	json_t *result[2], *e;
	int lead = (int)(p % 2), s, ok;
	size_t i;

	for (s = 0; s < 2; s++) {
		int at = s ^ lead; /* the side that runs at position s of the duet */
		lib[s].library = sd->build[at]->library;
		lib[s].digest_bits = sd->inst[at]->digest_bits;
		lib[s].placement_seed = hb_pass_seed(seed + (unsigned long long)at, (int)p, 1);
	}
	if (hb_duet_run(side, setup, lib, bytes, hb_pass_seed(seed, (int)p, 0),
			o->time_limit_s) != 0)
		return HB_ERROR;
	e = json_pack("{s:I, s:s}", "pass", (json_int_t)p + 1, "leads", lead ? "B" : "A");
	for (s = 0; s < 2; s++) {
		hb_duet_side *d = &side[s ^ lead];
		json_object_set_new(e, s ? "b" : "a", json_pack("{s:s, s:s?, s:O*, s:O*, s:s?}",
			"status", d->status, "detail", d->detail, "command", d->command, "result",
			d->result, "output", d->output));
		result[s] = d->result;
	}
	json_array_append_new(passes, e);
	ok = strcmp(side[0].status, "ok") == 0 && strcmp(side[1].status, "ok") == 0;
	if (ok)
		for (i = 0; i < nsizes; i++)
			S_pair(&sizes[i], p, result, o->rounds);
	else {
		int bad = strcmp(side[lead].status, "ok") != 0 ? 0 : 1; /* A's outcome, else B's */
		const hb_duet_side *d = &side[bad ^ lead];
		hb_error_set("pass %zu: %s %s: %s", p + 1, sd->label[bad], d->status,
			d->detail ? d->detail : "no detail");
	}
	hb_duet_side_clear(&side[0]);
	hb_duet_side_clear(&side[1]);
	return ok ? 0 : HB_ERROR;
}

static void S_print(FILE *f, const hb_compare_opts *o, const S_sides *sd, const S_size *sizes,
	size_t n, const char *counter, int cpu)
{
	size_t i, slower = 0, faster = 0;
	fprintf(f, "A: %s\nB: %s\nCPU %d, counter %s; %u passes of %u rounds, the two drivers "
		"taking turns block by block\n\n", sd->label[0], sd->label[1], cpu, counter, o->passes,
		o->rounds);
	fprintf(f, "%9s  %12s  %12s  %9s  %-19s  %s\n", "bytes", "A cyc/byte", "B cyc/byte", "A/B",
		"95 % interval", "verdict");
	for (i = 0; i < n; i++) {
		const hb_paired *q = &sizes[i].paired;
		char iv[64];
		snprintf(iv, sizeof(iv), "%.4f-%.4f", q->low, q->high);
		fprintf(f, "%9llu  %12.3f  %12.3f  %9.4f  %-19s  %s\n", sizes[i].bytes,
			sizes[i].best[0] / (double)sizes[i].bytes, sizes[i].best[1] /
			(double)sizes[i].bytes, q->ratio, iv, q->verdict);
		slower += strcmp(q->verdict, "slower") == 0;
		faster += strcmp(q->verdict, "faster") == 0;
	}
	fprintf(f, "\nA against B: slower at %zu, faster at %zu, within noise (± %g %%) at %zu of %zu "
		"sizes\n", slower, faster, o->noise_pct, n - slower - faster, n);
}

int hb_compare_run(int *out_slower, const hb_compare_opts *o_in)
{
	hb_compare_opts o = *o_in;
	unsigned long long sz[NSIZES_MAX], seed = 0;
	S_size sizes[NSIZES_MAX];
	size_t nsizes = 0, i, p;
	char bytes[NSIZES_MAX * 12] = "", started[32], finished[32];
	hb_counter counter;
	hb_driver_setup setup;
	json_t *passes = json_array(), *doc = NULL, *list;
	S_sides sd;
	int rc = 0, lock = -1, cpu;

	*out_slower = 0;
	memset(sizes, 0, sizeof(sizes));
	memset(&counter, 0, sizeof(counter));
	counter.fd = -1;
	if (!o.passes)
		o.passes = 6;
	if (!o.rounds)
		o.rounds = 20;
	if (!(o.noise_pct > 0))
		o.noise_pct = 1.0;
	if (!o.time_limit_s)
		o.time_limit_s = 120;
	if (o.passes > HB_COMPARE_MAX_PASSES)
		return hb_error_set("--passes %u: compare takes at most %d", o.passes,
			HB_COMPARE_MAX_PASSES);
	if (hb_sizes_parse(sz, &nsizes, o.sizes, 0) != 0 || (rc = S_sides_build(&sd, &o)) != 0) {
		if (rc)
			S_sides_free(&sd);
		json_decref(passes);
		return HB_ERROR;
	}
	for (i = 0; i < nsizes; i++) {
		sizes[i].bytes = sz[i];
		snprintf(bytes + strlen(bytes), sizeof(bytes) - strlen(bytes), "%s%llu", i ? "," : "",
			sz[i]);
	}
	cpu = o.cpu >= 0 ? o.cpu : hb_default_cpu();
	if (hb_counter_open(&counter, NULL) != 0) {
		rc = hb_error_set("no counter to time with on this machine");
		goto out;
	}
	if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
		seed = hb_now_ns() ^ ((unsigned long long)getpid() << 32);
	seed >>= 1;
	if (hb_cpulock_take(&lock, cpu, 1, "hashbench compare", o.progress) != 0) {
		rc = HB_ERROR;
		goto out;
	}
	memset(&setup, 0, sizeof(setup));
	setup.exe = o.measure_exe;
	setup.counter = hb_counter_name(&counter);
	setup.cpu = cpu;
	setup.blocks = (int)o.rounds;
	setup.samples = 0;
	setup.block_us = 1000;
	setup.warmup_ms = 10;
	setup.max_calls = 20000;
	hb_utc_now(started);
	for (p = 0; p < o.passes; p++) {
		if (o.progress)
			fprintf(o.progress, "hashbench: compare pass %zu of %u\n", p + 1, o.passes);
		if ((rc = S_pass(passes, sizes, nsizes, &o, &sd, &setup, bytes, seed, p)) != 0)
			goto out;
	}
	hb_utc_now(finished);
	list = json_array();
	for (i = 0; i < nsizes; i++) {
		if (hb_paired_of(&sizes[i].paired, sizes[i].a, sizes[i].b, sizes[i].npairs, o.passes,
				HB_PAIRED_FASTEST, o.noise_pct, seed ^ sizes[i].bytes) != 0) {
			json_decref(list);
			rc = hb_error_set("%llu bytes: %s", sizes[i].bytes, hb_error_last());
			goto out;
		}
		*out_slower |= strcmp(sizes[i].paired.verdict, "slower") == 0;
		json_array_append_new(list, S_size_json(&sizes[i]));
	}
	S_print(stdout, &o, &sd, sizes, nsizes, hb_counter_name(&counter), cpu);
	doc = json_pack("{s:s, s:o, s:o, s:i, s:s, s:s, s:s, s:I, s:I, s:f, s:s, s:s, s:I, s:o, "
		"s:o}", "schema", "hashbench.compare/1", "a", S_side_json(&sd, 0), "b",
		S_side_json(&sd, 1), "cpu", cpu, "counter", hb_counter_name(&counter), "started",
		started, "finished", finished, "passes", (json_int_t)o.passes, "rounds",
		(json_int_t)o.rounds, "noise_pct", o.noise_pct, "method", "paired-blocks",
		"interval", "median of the ratios of the fastest fifth of the pairs; 95 % percentile "
		"interval of a bootstrap over whole passes", "seed", (json_int_t)seed, "sizes", list,
		"passes_run", passes);
	passes = NULL;
	if (o.json_out && hb_json_write(o.json_out, doc) != 0)
		rc = HB_ERROR;
out:
	if (lock >= 0)
		hb_cpulock_release(lock);
	hb_counter_close(&counter);
	for (i = 0; i < nsizes; i++)
		for (p = 0; p < HB_COMPARE_MAX_PASSES; p++) {
			free(sizes[i].a[p]);
			free(sizes[i].b[p]);
		}
	json_decref(passes);
	json_decref(doc);
	S_sides_free(&sd);
	return rc;
}
