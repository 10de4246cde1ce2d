/* supercop_pick.c — which compiler line of a SUPERCOP implementation to keep: the lines that pass
 * timed in turns with the fastest by try's own median, a ratio of each to it from adjacent runs
 * (paired.c), the fastest beyond noise kept (of lines within noise of it, the first in the file's
 * order) and the lines within noise of the one kept named. */
#include <math.h>
#include <string.h>

#include "hbkat.h"

/* Line i against the candidate c: rounds runs of each, in turns (c first in even rounds, i in odd
 * ones), the ratio of each round's two medians; its paired ratio into lines[i]. */
static int S_against(hb_sc_pick_line *lines, size_t i, size_t c, const hb_sc_pick_fns *fns,
	unsigned rounds, double noise_pct)
{
	double ti[HB_SC_PICK_MAX_ROUNDS], tc[HB_SC_PICK_MAX_ROUNDS];
	double *const ri[1] = { ti }, *const rc[1] = { tc };
	size_t n = 0, k;
	hb_paired q;

	for (k = 0; k < rounds; k++) {
		size_t first = k % 2 ? i : c, second = k % 2 ? c : i;
		double a = fns->time_one(fns->ctx, first), b = fns->time_one(fns->ctx, second);
		double t_i = first == i ? a : b, t_c = first == i ? b : a;
		if (t_i > 0 && t_c > 0) {
			ti[n] = t_i;
			tc[n++] = t_c;
		}
	}
	/* the median of all rounds: a round is two whole try runs, each a median of its own */
	if (n < 2 || hb_paired_of(&q, ri, rc, &n, 1, 1, noise_pct, 0x7069636bULL ^ (i << 8 | c)) != 0)
		return -1;
	lines[i].ratio = q.ratio;
	lines[i].low = q.low;
	lines[i].high = q.high;
	lines[i].rounds = n;
	return 0;
}

/* The ratio of line i to line kept, both against the candidate: their quotient, the intervals'
 * relative half-widths in quadrature (the two were timed in different rounds). */
static void S_to_kept(double *lo, double *hi, const hb_sc_pick_line *i, const hb_sc_pick_line *k)
{
	double r = i->ratio / k->ratio;
	double down = hypot(log(i->ratio / i->low), log(k->high / k->ratio));
	double up = hypot(log(i->high / i->ratio), log(k->ratio / k->low));
	*lo = r / exp(down);
	*hi = r * exp(up);
}

/* Whether line i's ratio to line k holds 1 within noise (a line without a ratio never does). */
static int S_within(const hb_sc_pick_line *lines, size_t i, size_t k, double noise_pct)
{
	double lo, hi;
	if (lines[i].ratio < 0 || lines[k].ratio < 0)
		return 0;
	S_to_kept(&lo, &hi, &lines[i], &lines[k]);
	return strcmp(hb_paired_verdict(lo, hi, noise_pct), "within noise") == 0;
}

int hb_sc_pick(hb_sc_pick_line *lines, size_t n, const hb_sc_pick_fns *fns, unsigned rounds,
	double noise_pct)
{
	size_t c = n, kept, fastest, i;

	for (i = 0; i < n; i++) {
		lines[i].ratio = lines[i].low = lines[i].high = -1;
		lines[i].rounds = 0;
		lines[i].within_noise = 0;
		if (lines[i].passes && lines[i].cycles > 0 && (c == n ||
				lines[i].cycles < lines[c].cycles))
			c = i;
	}
	if (c == n)
		return -1;
	if (rounds > HB_SC_PICK_MAX_ROUNDS)
		rounds = HB_SC_PICK_MAX_ROUNDS;
	lines[c].ratio = lines[c].low = lines[c].high = 1;
	kept = c;
	for (i = 0; i < n; i++) {
		if (i == c || !lines[i].passes || S_against(lines, i, c, fns, rounds, noise_pct) != 0)
			continue;
		/* faster than the candidate beyond noise: the fastest of those is kept */
		if (strcmp(hb_paired_verdict(lines[i].low, lines[i].high, noise_pct), "faster") == 0 &&
			(kept == c || lines[i].ratio < lines[kept].ratio))
			kept = i;
	}
	/* of the lines within noise of the fastest, the first in the file's order is kept: SUPERCOP
	 * tries them in that order, and a tie measured anew must not change the line kept */
	fastest = kept;
	for (i = 0; i < fastest; i++)
		if (S_within(lines, i, fastest, noise_pct)) {
			kept = i;
			break;
		}
	for (i = 0; i < n; i++)
		lines[i].within_noise = i != kept && S_within(lines, i, kept, noise_pct);
	return (int)kept;
}
