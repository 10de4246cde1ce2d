/* paired.c — a ratio from blocks timed side by side (duet.c): each pair of adjacent blocks gives
 * one ratio, the figure is the median of all pairs, its 95 % interval a two-level bootstrap (the
 * passes resampled, then the pairs within each), so that it takes in what changes from one
 * process to the next (the placement in memory) as well as the host's moments; and a verdict
 * against a noise threshold, as Criterion.rs reports a change. */
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

int hb_paired_of(hb_paired *out, double *const *ratios, const size_t *n, size_t passes,
	double noise_pct, unsigned long long seed)
{
	size_t total = 0, most = 0, p, i, r, k;
	double *all, *boot, *est;

	memset(out, 0, sizeof(*out));
	for (p = 0; p < passes; p++)
		for (i = 0; i < n[p]; i++)
			if (!(ratios[p][i] > 0) || !isfinite(ratios[p][i]))
				return hb_error_set("pass %zu, pair %zu: a ratio of %g is not a ratio of two "
					"times", p + 1, i + 1, ratios[p][i]);
	for (p = 0; p < passes; p++) {
		total += n[p];
		most = n[p] > most ? n[p] : most;
	}
	if (total == 0)
		return hb_error_set("no pair of blocks to compare");
	all = malloc(total * sizeof(*all));
	boot = malloc(passes * most * sizeof(*boot)); /* a resample may draw the largest pass each time */
	est = malloc(S_RESAMPLES * sizeof(*est));
	if (!all || !boot || !est)
		abort();
	for (p = 0, k = 0; p < passes; p++)
		for (i = 0; i < n[p]; i++)
			all[k++] = ratios[p][i];
	out->ratio = hb_median(all, total);
	out->pairs = total;
	out->passes = passes;
	out->seed = seed;
	for (r = 0; r < S_RESAMPLES; r++) {
		size_t m = 0;
		for (p = 0; p < passes; p++) {
			/* the bootstrap's draws from a recorded seed, so that the interval can be redone */
			size_t q = (size_t)(hb_splitmix64(&seed) % passes);
			for (i = 0; i < n[q]; i++)
				boot[m++] = ratios[q][hb_splitmix64(&seed) % n[q]];
		}
		est[r] = m ? hb_median(boot, m) : out->ratio;
	}
	/* the percentile interval of the median: 2.5 % and 97.5 % of the resamples */
	out->low = hb_quantile(est, S_RESAMPLES, 0.025);
	out->high = hb_quantile(est, S_RESAMPLES, 0.975);
	if (out->low > out->ratio)
		out->low = out->ratio;
	if (out->high < out->ratio)
		out->high = out->ratio;
	out->noise_pct = noise_pct;
	out->verdict = hb_paired_verdict(out->low, out->high, noise_pct);
	free(all);
	free(boot);
	free(est);
	return 0;
}
