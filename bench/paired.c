/* paired.c — a ratio from blocks timed side by side (duet.c): each pair of adjacent blocks gives
 * one ratio, the figure is the median of the pairs' ratios (of the fastest fifth of the pairs in a
 * campaign and in compare: the moments when both sides ran at their best, as the headline is the
 * fastest block), its 95 % interval a bootstrap over the passes
 * (each resample draws whole passes, their pairs intact), so that it takes in what changes from
 * one process to the next (the placement in memory) as well as the host's moments; and a verdict
 * against a noise threshold, as Criterion.rs reports a change. Resampling the pairs within the
 * drawn passes as well would count their spread twice (Davison & Hinkley, Bootstrap Methods,
 * 1997, section 3.8: resample the clusters only); a single pass has only its pairs to resample. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hbtiming.h"
#include "hbutil.h"

#define S_RESAMPLES 2000

/* One size's blocks in a driver's result: cycles per call of each (0 for a block without calls),
 * in the order timed, at most cap of them; how many. */
static size_t S_blocks(double *out, size_t cap, json_t *result, unsigned long long bytes)
{
	size_t i, k, n = 0;
	json_t *z, *t;
	json_array_foreach(json_object_get(result, "sizes"), i, z) {
		if ((unsigned long long)json_integer_value(json_object_get(z, "bytes")) != bytes)
			continue;
		json_array_foreach(json_object_get(z, "trials"), k, t) {
			double it = (double)json_integer_value(json_object_get(t, "iterations"));
			double c = (double)json_integer_value(json_object_get(t, "cycles"));
			if (n < cap)
				out[n++] = it > 0 ? c / it : 0;
		}
	}
	return n;
}

size_t hb_paired_pairs(double *a, double *b, size_t cap, json_t *result_a, json_t *result_b,
	unsigned long long bytes)
{
	double *x = calloc(cap + 1, sizeof(double)), *y = calloc(cap + 1, sizeof(double));
	size_t nx, ny, k, n = 0;
	if (!x || !y)
		abort();
	nx = S_blocks(x, cap, result_a, bytes);
	ny = S_blocks(y, cap, result_b, bytes);
	for (k = 0; k < nx && k < ny; k++)
		if (x[k] > 0 && y[k] > 0) {
			a[n] = x[k];
			b[n++] = y[k];
		}
	free(x);
	free(y);
	return n;
}

const char *hb_paired_verdict(double low, double high, double noise_pct)
{
	if (low > 1 + noise_pct / 100)
		return "slower";
	if (high < 1 - noise_pct / 100)
		return "faster";
	return "within noise";
}

/* The estimate over m pairs: the median of a[i] / b[i] over the fastest fraction of the pairs, a
 * pair's rank the product of its two blocks over their own fastest, so that the pairs kept are
 * the moments when both sides ran at their best (all of them when fastest is 1). c and r hold m
 * doubles each. */
static double S_estimate(const double *a, const double *b, size_t m, double fastest, double *c,
	double *r)
{
	double amin = a[0], bmin = b[0], t;
	size_t i, k = 0;
	if (fastest >= 1) {
		for (i = 0; i < m; i++)
			r[i] = a[i] / b[i];
		return hb_median(r, m);
	}
	for (i = 1; i < m; i++) {
		amin = a[i] < amin ? a[i] : amin;
		bmin = b[i] < bmin ? b[i] : bmin;
	}
	for (i = 0; i < m; i++)
		r[i] = c[i] = a[i] / amin * (b[i] / bmin);
	t = hb_quantile(r, m, fastest);
	for (i = 0; i < m; i++)
		if (c[i] <= t)
			r[k++] = a[i] / b[i];
	return hb_median(r, k);
}

int hb_paired_of(hb_paired *out, double *const *a, double *const *b, const size_t *n,
	size_t passes, double fastest, double noise_pct, unsigned long long seed)
{
	size_t total = 0, most = 0, p, i, r, k;
	double *ba, *bb, *c, *w, *est;

	memset(out, 0, sizeof(*out));
	for (p = 0; p < passes; p++)
		for (i = 0; i < n[p]; i++)
			if (!(a[p][i] > 0) || !isfinite(a[p][i]) || !(b[p][i] > 0) || !isfinite(b[p][i]))
				return hb_error_set("pass %zu, pair %zu: %g and %g are not two times", p + 1,
					i + 1, a[p][i], b[p][i]);
	for (p = 0; p < passes; p++) {
		total += n[p];
		most = n[p] > most ? n[p] : most;
	}
	if (total == 0)
		return hb_error_set("no pair of blocks to compare");
	if (!(fastest > 0 && fastest <= 1))
		return hb_error_set("a fraction of the pairs of %g: expected more than 0, at most 1",
			fastest);
	/* a resample may draw the largest pass each time: passes * most holds every pair too */
	ba = malloc(passes * most * sizeof(double));
	bb = malloc(passes * most * sizeof(double));
	c = malloc(passes * most * sizeof(double));
	w = malloc(passes * most * sizeof(double));
	est = malloc(S_RESAMPLES * sizeof(*est));
	if (!ba || !bb || !c || !w || !est)
		abort();
	for (p = 0, k = 0; p < passes; p++)
		for (i = 0; i < n[p]; i++, k++) {
			ba[k] = a[p][i];
			bb[k] = b[p][i];
		}
	out->ratio = S_estimate(ba, bb, total, fastest, c, w);
	out->pairs = total;
	out->passes = passes;
	out->fastest = fastest;
	out->seed = seed;
	out->bootstrap = passes > 1 ? "passes" : "pairs";
	for (r = 0; r < S_RESAMPLES; r++) {
		size_t m = 0;
		for (p = 0; p < passes; p++) {
			/* the bootstrap's draws from a recorded seed, so that the interval can be redone */
			size_t q = (size_t)(hb_splitmix64(&seed) % passes);
			for (i = 0; i < n[q]; i++, m++) {
				size_t j = passes > 1 ? i : (size_t)(hb_splitmix64(&seed) % n[q]);
				ba[m] = a[q][j];
				bb[m] = b[q][j];
			}
		}
		est[r] = m ? S_estimate(ba, bb, m, fastest, c, w) : out->ratio;
	}
	/* the percentile interval of the estimate: 2.5 % and 97.5 % of the resamples */
	out->low = hb_quantile(est, S_RESAMPLES, 0.025);
	out->high = hb_quantile(est, S_RESAMPLES, 0.975);
	if (out->low > out->ratio)
		out->low = out->ratio;
	if (out->high < out->ratio)
		out->high = out->ratio;
	out->noise_pct = noise_pct;
	out->verdict = hb_paired_verdict(out->low, out->high, noise_pct);
	free(ba);
	free(bb);
	free(c);
	free(w);
	free(est);
	return 0;
}
