/* paired_pass.c — a campaign's paired passes: each library timed side by side with the
 * campaign's anchor (duet.c), the two drivers taking turns block by block on the timing CPU, and
 * a record's ratio to the anchor from the pairs of those passes (paired.c). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

/* Kept apart from the seeds of the ordinary passes: a paired pass has placements of its own. */
#define S_SALT 0x7061697265640000ULL

/* One size's blocks of both sides, cycles per call in the order timed: block k of the library
 * and block k of the anchor were timed one after the other (whichever led), a pair. */
static json_t *S_blocks(json_t *lib, json_t *anchor, unsigned long long bytes, size_t cap)
{
	double *a = calloc(cap + 1, sizeof(double)), *b = calloc(cap + 1, sizeof(double));
	size_t n, k;
	json_t *out = json_pack("{s:[], s:[]}", "library", "anchor");
	if (!a || !b)
		abort();
	n = hb_paired_pairs(a, b, cap, lib, anchor, bytes);
	for (k = 0; k < n; k++) {
		json_array_append_new(json_object_get(out, "library"), json_real(a[k]));
		json_array_append_new(json_object_get(out, "anchor"), json_real(b[k]));
	}
	free(a);
	free(b);
	return out;
}

int hb_paired_rounds(const hb_run *r)
{
	return r->prof->blocks / 2 > 3 ? r->prof->blocks / 2 : 3;
}

json_t *hb_paired_pass_run(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const hb_instance *anchor, const hb_build_result *ab, const unsigned long long *sizes,
	size_t n, int pass)
{
	hb_driver_setup setup = hb_run_driver(r);
	unsigned limit = r->o->time_limit_s ? r->o->time_limit_s : r->prof->time_limit_s;
	unsigned long long seed = r->seed ^ S_SALT;
	int lead = pass % 2; /* the library leads in even passes, the anchor in odd ones */
	char started[32], finished[32], *bytes = hb_ull_list(sizes, n);
	hb_duet_side side[2];
	hb_duet_lib lib[2];
	json_t *out, *ratios;
	size_t i;
	int s;

	setup.samples = 0; /* single calls are the ordinary passes' */
	setup.blocks = hb_paired_rounds(r);
	for (s = 0; s < 2; s++) {
		int anc = s ^ lead; /* position s runs the anchor when anc is 1 */
		lib[s].library = anc ? ab->library : b->library;
		lib[s].digest_bits = anc ? anchor->digest_bits : inst->digest_bits;
		lib[s].placement_seed = hb_pass_seed(seed + 1 + (unsigned long long)anc, pass, 1);
	}
	hb_utc_now(started);
	if (hb_duet_run(side, &setup, lib, bytes, hb_pass_seed(seed, pass, 0), limit) != 0) {
		free(bytes);
		return json_pack("{s:i, s:s, s:s}", "pass", pass + 1, "status", "error", "detail",
			hb_error_last());
	}
	hb_utc_now(finished);
	out = json_pack("{s:i, s:s, s:s, s:s, s:s, s:I}", "pass", pass + 1, "leads",
		lead ? "anchor" : "library", "status", "ok", "started", started, "finished", finished,
		"order_seed", (json_int_t)hb_pass_seed(seed, pass, 0));
	for (s = 0; s < 2; s++) {
		const hb_duet_side *d = &side[s ^ lead]; /* the library's side, then the anchor's */
		json_object_set_new(out, s ? "anchor" : "library", json_pack("{s:s, s:s?, s:O*, s:I}",
			"status", d->status, "detail", d->detail, "command", d->command, "placement_seed",
			(json_int_t)lib[s ^ lead].placement_seed));
		if (strcmp(d->status, "ok") != 0 && strcmp(json_string_value(json_object_get(out,
				"status")), "ok") == 0) {
			json_object_set_new(out, "status", json_string(d->status));
			json_object_set_new(out, "detail", json_sprintf("%s: %s", s ? "the anchor" :
				"the library", d->detail ? d->detail : d->status));
		}
	}
	if (strcmp(json_string_value(json_object_get(out, "status")), "ok") == 0) {
		ratios = json_object();
		for (i = 0; i < n; i++) {
			char key[32];
			snprintf(key, sizeof(key), "%llu", sizes[i]);
			json_object_set_new(ratios, key, S_blocks(side[lead].result, side[1 - lead].result,
				sizes[i], (size_t)setup.blocks));
		}
		json_object_set_new(out, "blocks", ratios);
	} else
		hb_note(r->o->progress, r->tty, "%s (%s) paired pass %d: %s", inst->name, inst->impl,
			pass + 1, json_string_value(json_object_get(out, "detail")));
	hb_duet_side_clear(&side[0]);
	hb_duet_side_clear(&side[1]);
	free(bytes);
	return out;
}

json_t *hb_paired_record_json(const hb_run *r, json_t *passes, const hb_instance *anchor,
	unsigned long long bytes, int self)
{
	double *v[HB_PAIRED_MAX_PASSES], *w[HB_PAIRED_MAX_PASSES];
	size_t nv[HB_PAIRED_MAX_PASSES], np = 0, i, k;
	char key[32];
	json_t *p, *all, *out;
	hb_paired q;

	out = json_pack("{s:{s:s, s:s}, s:b, s:I, s:s}", "anchor", "instance", anchor->name,
		"implementation", anchor->impl, "self", self, "campaign_seed", (json_int_t)r->seed,
		"method", HB_PAIRED_METHOD);
	if (self) {
		json_object_update_new(out, json_pack("{s:f, s:f, s:f, s:f, s:s, s:i, s:i}", "ratio", 1.0,
			"low", 1.0, "high", 1.0, "half_width_pct", 0.0, "state", "narrow", "pairs", 0,
			"passes", 0));
		return out;
	}
	snprintf(key, sizeof(key), "%llu", bytes);
	all = json_array();
	json_array_foreach(passes, i, p) {
		json_t *bl = json_object_get(json_object_get(p, "blocks"), key);
		json_t *x = json_object_get(bl, "library"), *y = json_object_get(bl, "anchor");
		if (!json_array_size(x) || np == HB_PAIRED_MAX_PASSES)
			continue;
		v[np] = malloc(json_array_size(x) * sizeof(double));
		w[np] = malloc(json_array_size(x) * sizeof(double));
		if (!v[np] || !w[np])
			abort();
		for (nv[np] = 0; nv[np] < json_array_size(x); nv[np]++) {
			v[np][nv[np]] = json_number_value(json_array_get(x, nv[np]));
			w[np][nv[np]] = json_number_value(json_array_get(y, nv[np]));
		}
		json_array_append(all, bl);
		np++;
	}
	if (np == 0 || hb_paired_of(&q, v, w, nv, np, HB_PAIRED_FASTEST, HB_PAIRED_WIDE_PCT,
			r->seed ^ bytes) != 0) {
		json_decref(out);
		json_decref(all);
		out = NULL;
	} else {
		/* the half-width: the larger side of the interval, in % of the ratio */
		double half = fmax(q.high / q.ratio - 1, 1 - q.low / q.ratio) * 100;
		json_object_update_new(out, json_pack("{s:f, s:f, s:f, s:f, s:s, s:I, s:I, s:I, s:s, "
			"s:o}", "ratio", q.ratio, "low", q.low, "high", q.high, "half_width_pct", half,
			"state", half > HB_PAIRED_WIDE_PCT ? "wide" : "narrow", "pairs", (json_int_t)q.pairs,
			"passes", (json_int_t)q.passes, "bootstrap_seed", (json_int_t)(q.seed >> 1),
			"bootstrap", q.bootstrap, "blocks", all));
		json_object_set_new(out, "fastest_fraction", json_real(q.fastest));
	}
	for (k = 0; k < np; k++) {
		free(v[k]);
		free(w[k]);
	}
	return out;
}
