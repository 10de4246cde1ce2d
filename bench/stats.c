/* stats.c — the robust statistics the campaign's judgements use: the median and a quantile of a
 * sample. */
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
