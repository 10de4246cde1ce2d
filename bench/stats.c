/* stats.c — the robust statistics the campaign's judgements use: the median and a quantile of a
 * sample, of numbers or of a JSON list of them. */
#include <math.h>
#include <stdlib.h>

#include "hbutil.h"

static int S_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

double hb_median(double *v, size_t n)
{
	if (n == 0)
		return -1;
	qsort(v, n, sizeof(*v), S_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double hb_quantile(double *v, size_t n, double q)
{
	size_t r;
	if (n == 0)
		return -1;
	qsort(v, n, sizeof(*v), S_cmp_double);
	r = (size_t)ceil(q * (double)n);
	return v[r > 0 ? (r < n ? r : n) - 1 : 0];
}

double hb_median_json(json_t *list)
{
	size_t i, n = json_array_size(list);
	double *v = n ? malloc(n * sizeof(*v)) : NULL, m;
	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = json_number_value(json_array_get(list, i));
	m = hb_median(v, n);
	free(v);
	return m;
}
