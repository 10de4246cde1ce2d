/* shortest.c — a double as the shortest of %.15g, %.16g and %.17g that reads back as the same
 * double, made from one printf of its 17 digits instead of one printf per precision. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genutil.h"

/* The digits rounded to prec of 17 (prec < 17), exponent *exp adjusted on a carry out of the
 * first digit; -1 when the 17 digits cannot tell which way the exact value rounds (the dropped
 * part is exactly one half of the last digit kept, as far as 17 digits show). */
static int S_round(char *out, int *exp, const char *d17, int prec)
{
	int tail = 0, half = 5, i;
	for (i = prec; i < 17; i++)
		tail = tail * 10 + (d17[i] - '0');
	for (i = prec + 1; i < 17; i++)
		half *= 10;
	/* the exact value lies within half a unit of the 17th digit of d17: a tail of exactly half
	 * might be either side of it */
	if (tail == half)
		return -1;
	memcpy(out, d17, (size_t)prec);
	if (tail > half) {
		for (i = prec - 1; i >= 0 && out[i] == '9'; i--)
			out[i] = '0';
		if (i >= 0) {
			out[i]++;
		} else { /* 99…9 became 100…0 */
			out[0] = '1';
			(*exp)++;
		}
	}
	return 0;
}

/* prec digits with decimal exponent exp, written as %.<prec>g writes them (fixed when
 * -4 <= exp < prec, else d.ddde±XX; trailing zeros of the fraction and a bare point dropped). */
static void S_as_g(char *b, int neg, const char *dig, int prec, int exp)
{
	char *p = b;
	int i, last = prec - 1;

	if (neg)
		*p++ = '-';
	if (exp >= -4 && exp < prec) {
		/* the digits after the point that count: none past the last non-zero one */
		int point = exp >= 0 ? exp + 1 : 0;
		while (last >= point && dig[last] == '0')
			last--;
		if (exp >= 0) {
			memcpy(p, dig, (size_t)point);
			p += point;
		} else {
			*p++ = '0';
		}
		if (last >= point || exp < 0) {
			*p++ = '.';
			for (i = exp + 1; i < 0; i++)
				*p++ = '0';
			for (i = point; i <= last; i++)
				*p++ = dig[i];
		}
		*p = 0;
		return;
	}
	while (last > 0 && dig[last] == '0')
		last--;
	*p++ = dig[0];
	if (last > 0) {
		*p++ = '.';
		memcpy(p, dig + 1, (size_t)last);
		p += last;
	}
	sprintf(p, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
}

void hg_num_shortest(char *b, size_t n, double v)
{
	char e[40], d17[17], dig[17], text[40];
	const char *p;
	int neg, exp, prec;

	if (!isfinite(v)) {
		snprintf(b, n, "%.17g", v);
		return;
	}
	/* -d.dddddddddddddddde±XX: the 17 significant digits %.17g would show */
	snprintf(e, sizeof(e), "%.16e", v);
	neg = e[0] == '-';
	p = e + neg;
	d17[0] = p[0];
	memcpy(d17 + 1, p + 2, 16);
	exp = atoi(p + 19);
	for (prec = 15; prec < 17; prec++) {
		int x = exp;
		if (S_round(dig, &x, d17, prec) != 0) {
			/* cannot tell from 17 digits: as printf rounds the exact value */
			snprintf(text, sizeof(text), "%.*g", prec, v);
		} else {
			S_as_g(text, neg, dig, prec, x);
		}
		if (strtod(text, NULL) == v) {
			snprintf(b, n, "%s", text);
			return;
		}
	}
	S_as_g(text, neg, d17, 17, exp);
	snprintf(b, n, "%s", text);
}
