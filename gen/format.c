/* format.c — the number formats of the generated pages (DESIGN.md, "Derived figures and how
 * they are printed") and the derived figures of one timing record. Both renderers call these,
 * so a page and its Markdown twin can never disagree on a digit. */
#include "genutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define S_NA "not available"

/* A bounded writer: appends never overrun, and a cut never leaves half a UTF-8 character. */
typedef struct {
	char *buf;
	size_t n;
	size_t len;
} S_out;

static S_out S_open(char *buf, size_t n)
{
	S_out o = { buf, n, 0 };
	if (buf && n > 0)
		buf[0] = '\0';
	return o;
}

static void S_trim_utf8(S_out *o)
{
	size_t p = o->len;
	unsigned char lead;
	size_t need;

	while (p > 0 && ((unsigned char)o->buf[p - 1] & 0xC0) == 0x80)
		p--;
	if (p == 0)
		return;
	lead = (unsigned char)o->buf[p - 1];
	if (lead < 0xC0) {
		/* ASCII before the continuation bytes: those are stray, drop them */
		if (p != o->len) {
			o->len = p;
			o->buf[p] = '\0';
		}
		return;
	}
	need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
	if (o->len - (p - 1) < need) {
		o->len = p - 1;
		o->buf[o->len] = '\0';
	}
}

static void S_add(S_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void S_add(S_out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int r;

	if (!o->buf || o->n == 0 || o->len + 1 >= o->n)
		return;
	room = o->n - o->len;
	va_start(ap, fmt);
	r = vsnprintf(o->buf + o->len, room, fmt, ap);
	va_end(ap);
	if (r < 0) {
		o->buf[o->len] = '\0';
		return;
	}
	if ((size_t)r >= room) {
		o->len = o->n - 1;
		S_trim_utf8(o);
	} else {
		o->len += (size_t)r;
	}
}

static char *S_na(char *buf, size_t n)
{
	S_out o = S_open(buf, n);
	S_add(&o, "%s", S_NA);
	return buf;
}

/* 10^d, exact for |d| <= 22 */
static double S_pow10(int d)
{
	static const double p[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
				    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
				    1e22 };
	if (d >= 0 && d <= 22)
		return p[d];
	return pow(10.0, d);
}

/* x rounded to d decimals (d may be negative), half away from zero, as an integral count of
 * 10^-d units. Dividing by an exact power of ten (rather than multiplying by its inexact
 * reciprocal) keeps exact halves such as 9999.5 or 999950 / 100 exact. */
static double S_scaled(double x, int d)
{
	return d >= 0 ? round(x * S_pow10(d)) : round(x / S_pow10(-d));
}

/* Print m (a non-negative integral count of 10^-d units, d >= 0) with exactly d decimals. */
static void S_fixed(S_out *o, int neg, double m, int d, const char *suffix)
{
	const char *sign = neg && m != 0 ? "-" : "";
	double p, ip, fp;

	if (d == 0) {
		S_add(o, "%s%.0f%s", sign, m, suffix);
		return;
	}
	p = S_pow10(d);
	ip = floor(m / p);
	fp = m - ip * p;
	if (fp < 0 || fp >= p)
		fp = 0; /* beyond 2^53 the low digits are not there to print */
	S_add(o, "%s%.0f.%0*.0f%s", sign, ip, d, fp, suffix);
}

char *hg_fmt_message(char *buf, size_t n, unsigned long long bytes)
{
	S_out o = S_open(buf, n);
	S_add(&o, "%llu B", bytes);
	return buf;
}

/* The unit of a cycle count: its decimals d and scale e (the value is counted in 10^(e - d)
 * units), chosen on the rounded value, so 9999.5 becomes "10.0 k", not "10000". */
static const char *S_cycles_unit(double x, int *d, int *e)
{
	if (S_scaled(x, 0) < 10000) {
		*d = 0, *e = 0;
		return "";
	}
	if (S_scaled(x, -2) < 10000) { /* tenths of k */
		*d = 1, *e = 3;
		return " k";
	}
	*d = 2, *e = 6; /* hundredths of M */
	return " M";
}

char *hg_fmt_cycles(char *buf, size_t n, double mean_cycles)
{
	S_out o = S_open(buf, n);
	double x = fabs(mean_cycles);
	const char *unit;
	int d, e;

	if (!isfinite(mean_cycles))
		return S_na(buf, n);
	unit = S_cycles_unit(x, &d, &e);
	S_fixed(&o, mean_cycles < 0, S_scaled(x, d - e), d, unit);
	return buf;
}

char *hg_fmt_cycles_pm(char *buf, size_t n, double mean_cycles, double half)
{
	S_out o = S_open(buf, n);
	double x = fabs(mean_cycles);
	const char *unit;
	int d, e, k;

	if (!isfinite(mean_cycles) || !isfinite(half) || half < 0)
		return hg_fmt_cycles(buf, n, mean_cycles);
	unit = S_cycles_unit(x, &d, &e);
	/* a decimal or two more where the half-width would read 0 (10.00 k ± 0.02 k) */
	for (k = 0; k < 2 && half > 0 && S_scaled(half, d - e) < 1; k++)
		d++;
	S_fixed(&o, mean_cycles < 0, S_scaled(x, d - e), d, unit);
	S_add(&o, " \u00b1 ");
	S_fixed(&o, 0, S_scaled(half, d - e), d, unit);
	return buf;
}

static char *S_one_decimal(char *buf, size_t n, double v)
{
	S_out o = S_open(buf, n);

	if (!isfinite(v))
		return S_na(buf, n);
	S_fixed(&o, v < 0, S_scaled(fabs(v), 1), 1, "");
	return buf;
}

char *hg_fmt_cpb(char *buf, size_t n, double cycles_per_byte)
{
	return S_one_decimal(buf, n, cycles_per_byte);
}

char *hg_fmt_cpb_pm(char *buf, size_t n, double cycles_per_byte, double half)
{
	S_out o;
	int d = 1;

	if (!isfinite(cycles_per_byte) || !isfinite(half) || half < 0)
		return S_one_decimal(buf, n, cycles_per_byte);
	/* one decimal, as every cycles/byte figure; more where the half-width would read 0.0, so
	 * that it keeps one significant digit (7.62 ± 0.04, 1.544 ± 0.003), at most four */
	while (d < 4 && half > 0 && S_scaled(half, d) < 1)
		d++;
	o = S_open(buf, n);
	S_fixed(&o, cycles_per_byte < 0, S_scaled(fabs(cycles_per_byte), d), d, "");
	S_add(&o, " \u00b1 ");
	S_fixed(&o, 0, S_scaled(half, d), d, "");
	return buf;
}

char *hg_fmt_ratio(char *buf, size_t n, double ratio, double low, double high, const char *times)
{
	S_out o = S_open(buf, n);
	double half = fmax(ratio - low, high - ratio);
	int d = 2;

	if (!isfinite(ratio))
		return S_na(buf, n);
	if (low < 0 || !isfinite(low) || !isfinite(high) || !(half >= 0)) {
		S_add(&o, "%.2f%s", ratio, times); /* as the ratios were printed before intervals */
		return buf;
	}
	/* two decimals, more where the half-width would read 0.00 (0.263 ± 0.002×), at most four */
	while (d < 4 && half > 0 && S_scaled(half, d) < 1)
		d++;
	S_fixed(&o, ratio < 0, S_scaled(fabs(ratio), d), d, "");
	S_add(&o, " \u00b1 ");
	S_fixed(&o, 0, S_scaled(half, d), d, times);
	return buf;
}

char *hg_fmt_mbps(char *buf, size_t n, double mbps)
{
	return S_one_decimal(buf, n, mbps);
}

/* v > 0 rounded to three significant digits: m in [100, 999] units of 10^-d. */
static void S_sig3(double v, double *m, int *d)
{
	double e = floor(log10(v));
	int k;

	*d = 2 - (int)e;
	/* log10 may be off by one right at a power of ten, and rounding can carry into a new
	 * digit (999.5 → 1000): settle on the d that leaves three digits after rounding */
	for (k = 0; k < 4; k++) {
		*m = S_scaled(v, *d);
		if (*m >= 1000)
			(*d)--;
		else if (*m < 100)
			(*d)++;
		else
			return;
	}
	*m = S_scaled(v, *d);
}

/* Three significant digits m·10^-d (|d| <= 40) as a decimal with trailing zeros dropped. */
static void S_sig3_print(S_out *o, int neg, double m, int d, const char *unit)
{
	char digits[8], num[64];
	size_t k = 0;
	int i;

	snprintf(digits, sizeof digits, "%03d", (int)m);
	if (d <= 0) {
		memcpy(num, digits, 3);
		k = 3;
		for (i = 0; i < -d; i++)
			num[k++] = '0';
	} else if (d < 3) {
		for (i = 0; i < 3; i++) {
			if (i == 3 - d)
				num[k++] = '.';
			num[k++] = digits[i];
		}
	} else {
		num[k++] = '0';
		num[k++] = '.';
		for (i = 0; i < d - 3; i++)
			num[k++] = '0';
		memcpy(num + k, digits, 3);
		k += 3;
	}
	if (d > 0) {
		while (num[k - 1] == '0')
			k--;
		if (num[k - 1] == '.')
			k--;
	}
	num[k] = '\0';
	S_add(o, "%s%s %s", neg ? "-" : "", num, unit);
}

char *hg_fmt_time(char *buf, size_t n, double ns)
{
	static const struct {
		const char *name;
		double scale;
	} units[] = { { "ns", 1 }, { "\u00b5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	const size_t nunits = sizeof units / sizeof units[0];
	S_out o = S_open(buf, n);
	int neg = ns < 0, d = 0;
	double x = fabs(ns), v, m = 0;
	size_t u;

	if (!isfinite(ns))
		return S_na(buf, n);
	if (x == 0) {
		S_add(&o, "0 ns");
		return buf;
	}
	for (u = 0; u < nunits; u++) {
		v = x / units[u].scale;
		S_sig3(v, &m, &d);
		/* d >= 0 means the rounded value is below 1000 in this unit */
		if (d >= 0 || u + 1 == nunits)
			break;
	}
	if (d > 40 || d < -40) {
		/* far outside any real measurement: keep it readable rather than exact */
		S_add(&o, "%s%.3g %s", neg ? "-" : "", x / units[u].scale, units[u].name);
		return buf;
	}
	S_sig3_print(&o, neg, m, d, units[u].name);
	return buf;
}

char *hg_fmt_n(char *buf, size_t n, const unsigned long long *iterations, size_t rounds)
{
	S_out o = S_open(buf, n);
	unsigned long long total = 0;
	int equal = 1;
	size_t i;

	if (!iterations || rounds == 0)
		return S_na(buf, n);
	for (i = 0; i < rounds; i++) {
		if (total + iterations[i] < total)
			return S_na(buf, n);
		total += iterations[i];
		if (iterations[i] != iterations[0])
			equal = 0;
	}
	if (equal)
		S_add(&o, "%llu (%zu \u00d7 %llu)", total, rounds, iterations[0]);
	else
		S_add(&o, "%llu (%zu rounds)", total, rounds);
	return buf;
}

char *hg_fmt_kib(char *buf, size_t n, long long kib)
{
	S_out o = S_open(buf, n);

	if (kib < 0)
		return S_na(buf, n);
	S_add(&o, "%lld KiB", kib);
	return buf;
}

char *hg_fmt_sha_short(char *buf, size_t n, const char *hex)
{
	S_out o = S_open(buf, n);
	size_t i;

	if (!hex || !*hex)
		return S_na(buf, n);
	for (i = 0; i < 16 && hex[i]; i++)
		if (!strchr("0123456789abcdefABCDEF", hex[i]))
			break;
	if (i == 16 && hex[16])
		S_add(&o, "%.16s\u2026", hex);
	else
		S_add(&o, "%s", hex); /* short or not hex: nothing is hidden */
	return buf;
}

char *hg_fmt_ghz(char *buf, size_t n, long long khz)
{
	S_out o = S_open(buf, n);
	long long m;

	if (khz < 0)
		return S_na(buf, n);
	m = khz / 10000 + (khz % 10000 >= 5000); /* hundredths of GHz, no overflow near the top */
	S_add(&o, "%lld.%02lld", m / 100, m % 100);
	return buf;
}

char *hg_fmt_hz(char *buf, size_t n, double hz)
{
	if (hz >= 1e9)
		snprintf(buf, n, "%.4g GHz", hz / 1e9);
	else if (hz >= 1e6)
		snprintf(buf, n, "%.4g MHz", hz / 1e6);
	else
		snprintf(buf, n, "%.4g kHz", hz / 1e3);
	return buf;
}

static const char *S_or_na(const char *s)
{
	return s && *s ? s : S_NA;
}

char *hg_fmt_clock(char *buf, size_t n, const char *governor, long long min_khz,
		   long long max_khz, const char *boost_name, const char *boost_state,
		   const char *smt)
{
	S_out o = S_open(buf, n);
	char ghz[32];

	if (max_khz < 0)
		S_add(&o, "frequency " S_NA ", governor %s", S_or_na(governor));
	else if (min_khz == max_khz)
		S_add(&o, "fixed %s GHz (governor %s, minimum = maximum)",
		      hg_fmt_ghz(ghz, sizeof ghz, max_khz), S_or_na(governor));
	else
		S_add(&o, "max %s GHz, governor %s", hg_fmt_ghz(ghz, sizeof ghz, max_khz),
		      S_or_na(governor));
	if (!boost_name || !*boost_name)
		S_add(&o, ", boost/turbo " S_NA);
	else if (!boost_state || !*boost_state)
		S_add(&o, ", %s state " S_NA, boost_name);
	else
		S_add(&o, ", %s %s", boost_name, boost_state);
	S_add(&o, ", SMT %s", S_or_na(smt));
	return buf;
}

char *hg_fmt_utc(char *buf, size_t n, const char *iso)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	S_out o = S_open(buf, n);
	size_t i;

	if (!iso)
		return S_na(buf, n);
	for (i = 0; shape[i]; i++) {
		if (shape[i] == 'd' ? !(iso[i] >= '0' && iso[i] <= '9') : iso[i] != shape[i])
			break;
	}
	if (!shape[i] && !iso[i])
		S_add(&o, "%.19s", iso);
	else
		S_add(&o, "%s", iso);
	return buf;
}

int hg_figures(hg_figures_t *out, const unsigned long long *it, const unsigned long long *cy,
	       const unsigned long long *ns, size_t rounds, unsigned long long message_bytes)
{
	unsigned long long sit = 0, scy = 0, sns = 0;
	size_t i;

	if (!out)
		return -1;
	memset(out, 0, sizeof *out);
	if (!it || !cy || !ns || rounds == 0 || message_bytes == 0)
		return -1;
	for (i = 0; i < rounds; i++) {
		if (sit + it[i] < sit || scy + cy[i] < scy || sns + ns[i] < sns)
			return -1;
		sit += it[i];
		scy += cy[i];
		sns += ns[i];
	}
	if (sit == 0 || sns == 0)
		return -1;
	out->n = sit;
	out->mean_cycles = (double)scy / (double)sit;
	out->cycles_per_byte = out->mean_cycles / (double)message_bytes;
	out->mean_ns = (double)sns / (double)sit;
	out->mbps = (double)message_bytes / (out->mean_ns / 1e9) / 1e6;
	return 0;
}
