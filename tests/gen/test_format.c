/* test_format.c — the number formats of the pages print exactly what the reference reports
 * print, round half away from zero, pick units after rounding, and refuse what cannot be divided. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "genutil.h"

#define NA "not available"

static char b[128];

Test(format, message)
{
	cr_expect_str_eq(hg_fmt_message(b, sizeof b, 32), "32 B");
	cr_expect_str_eq(hg_fmt_message(b, sizeof b, 65536), "65536 B");
	cr_expect_str_eq(hg_fmt_message(b, sizeof b, 0), "0 B");
}

Test(format, cycles_units_and_examples)
{
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 3061), "3061");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 15400), "15.4 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 100100), "100.1 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 1550000), "1.55 M");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 0), "0");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 1234567890), "1234.57 M");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, NAN), NA);
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, INFINITY), NA);
}

Test(format, cycles_round_half_away_then_choose_unit)
{
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 2.5), "3");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 2006.4), "2006");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 9999.4), "9999");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 9999.5), "10.0 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 10000), "10.0 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 15449), "15.4 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 15450), "15.5 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 999949), "999.9 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 999950), "1.00 M");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 999999.5), "1.00 M");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 1004999), "1.00 M");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 1005000), "1.01 M");
}

Test(format, one_decimal_figures)
{
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 95.7), "95.7");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 323.1), "323.1");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 0), "0.0");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 62.6875), "62.7");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 62.5), "62.5");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 0.25), "0.3");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 0.04), "0.0");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, 20.98), "21.0");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, NAN), NA);
	cr_expect_str_eq(hg_fmt_mbps(b, sizeof b, 28.1), "28.1");
	cr_expect_str_eq(hg_fmt_mbps(b, sizeof b, 110.3), "110.3");
	cr_expect_str_eq(hg_fmt_mbps(b, sizeof b, 259.96), "260.0");
	cr_expect_str_eq(hg_fmt_mbps(b, sizeof b, 6.45), "6.5");
}

Test(format, time_examples)
{
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 961), "961 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1140), "1.14 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 28000), "28 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 149000), "149 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1130000), "1.13 ms");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 999.4), "999 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 12.34), "12.3 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 0.5), "0.5 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 2.5e9), "2.5 s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1.23456e12), "1230 s");
	/* "µ" is U+00B5 MICRO SIGN in UTF-8, not the Greek mu */
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1140), "1.14 \xc2\xb5s");
}

Test(format, time_unit_after_rounding)
{
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 999.96), "1 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 999.5), "1 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 999499), "999 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 999500), "1 ms");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 999.6e6), "1 s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1e9), "1 s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 9.996), "10 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 99.96), "100 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 100), "100 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 10020), "10 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1005.5), "1.01 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 0.001234), "0.00123 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 0), "0 ns");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 3.6e15), "3600000 s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, NAN), NA);
}

Test(format, n_rounds)
{
	const unsigned long long equal[] = { 20000, 20000, 20000, 20000, 20000 };
	const unsigned long long one[] = { 20000 };
	const unsigned long long unequal[] = { 2451, 2452, 2450, 2451, 2451 };

	cr_expect_str_eq(hg_fmt_n(b, sizeof b, equal, 5), "100000 (5 \u00d7 20000)");
	cr_expect_str_eq(hg_fmt_n(b, sizeof b, one, 1), "20000 (1 \u00d7 20000)");
	cr_expect_str_eq(hg_fmt_n(b, sizeof b, unequal, 5), "12255 (5 rounds)");
	cr_expect_str_eq(hg_fmt_n(b, sizeof b, equal, 0), NA);
	cr_expect_str_eq(hg_fmt_n(b, sizeof b, NULL, 5), NA);
}

Test(format, kib_sha_ghz)
{
	cr_expect_str_eq(hg_fmt_kib(b, sizeof b, 1404), "1404 KiB");
	cr_expect_str_eq(hg_fmt_kib(b, sizeof b, 0), "0 KiB");
	cr_expect_str_eq(hg_fmt_kib(b, sizeof b, -1), NA);

	cr_expect_str_eq(hg_fmt_sha_short(b, sizeof b,
		"c5bd8caeb1f991d0aa3c4f41ab3aa2e5e4bd4c71b0f1e3b6d5e0c0dfeb3a1c2f"),
		"c5bd8caeb1f991d0\u2026");
	cr_expect_str_eq(hg_fmt_sha_short(b, sizeof b, NULL), NA);
	cr_expect_str_eq(hg_fmt_sha_short(b, sizeof b, "abc"), "abc");
	cr_expect_str_eq(hg_fmt_sha_short(b, sizeof b, "c5bd8caeb1f991d0"), "c5bd8caeb1f991d0");

	cr_expect_str_eq(hg_fmt_ghz(b, sizeof b, 2710000), "2.71");
	cr_expect_str_eq(hg_fmt_ghz(b, sizeof b, 2100000), "2.10");
	cr_expect_str_eq(hg_fmt_ghz(b, sizeof b, 2704999), "2.70");
	cr_expect_str_eq(hg_fmt_ghz(b, sizeof b, 2705000), "2.71");
	cr_expect_str_eq(hg_fmt_ghz(b, sizeof b, 800000), "0.80");
	cr_expect_str_eq(hg_fmt_ghz(b, sizeof b, 0), "0.00");
	cr_expect_str_eq(hg_fmt_ghz(b, sizeof b, -1), NA);
}

Test(format, clock_rows)
{
	cr_expect_str_eq(hg_fmt_clock(b, sizeof b, "performance", 2710000, 2710000, "boost", "off", "none"),
		"fixed 2.71 GHz (governor performance, minimum = maximum), boost off, SMT none");
	cr_expect_str_eq(hg_fmt_clock(b, sizeof b, "performance", 800000, 2100000, "turbo", "off", "off"),
		"max 2.10 GHz, governor performance, turbo off, SMT off");
	cr_expect_str_eq(hg_fmt_clock(b, sizeof b, NULL, -1, -1, NULL, NULL, NULL),
		"frequency not available, governor not available, boost/turbo not available, "
		"SMT not available");
	cr_expect_str_eq(hg_fmt_clock(b, sizeof b, NULL, -1, 2100000, "turbo", NULL, "on"),
		"max 2.10 GHz, governor not available, turbo state not available, SMT on");
	cr_expect_str_eq(hg_fmt_clock(b, sizeof b, "schedutil", 2710000, 2710000, NULL, "off", NULL),
		"fixed 2.71 GHz (governor schedutil, minimum = maximum), boost/turbo not available, "
		"SMT not available");
}

Test(format, utc)
{
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-25T10:02:21Z"), "2026-09-25T10:02:21");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-28T10:51:21Z"), "2026-09-28T10:51:21");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, NULL), NA);
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-25 10:02:21"), "2026-09-25 10:02:21");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-25T10:02:21+00:00"), "2026-09-25T10:02:21+00:00");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-25T10:02:21Z "), "2026-09-25T10:02:21Z ");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-25T10:02:2xZ"), "2026-09-25T10:02:2xZ");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, ""), "");
}

Test(format, small_buffers_stay_terminated_and_whole_utf8)
{
	char small[8];

	/* "1.14 µs" is 8 bytes; 7 fit, which would cut the two-byte "µ" in half */
	hg_fmt_time(small, 7, 1140);
	cr_expect_str_eq(small, "1.14 ");
	hg_fmt_time(small, 8, 1140);
	cr_expect_str_eq(small, "1.14 \u00b5");
	hg_fmt_clock(small, sizeof small, "performance", 1, 2, "boost", "off", "none");
	cr_expect_str_eq(small, "max 0.0");
	hg_fmt_message(small, 1, 32);
	cr_expect_str_eq(small, "");
}

/* ---- derived figures ---- */

Test(format, figures_llh256_32)
{
	/* hash-16 LLH-256 32 B on x86_1: 2006, 62.7, 961 ns, 33.3, 100000 (5 × 20000) */
	const unsigned long long it[] = { 20000, 20000, 20000, 20000, 20000 };
	const unsigned long long cy[] = { 40124000, 40124000, 40124000, 40124000, 40124000 };
	const unsigned long long ns[] = { 19224000, 19224000, 19224000, 19224000, 19224000 };
	hg_figures_t f;

	cr_assert_eq(hg_figures(&f, it, cy, ns, 5, 32), 0);
	cr_expect_eq(f.n, 100000ULL);
	cr_expect_float_eq(f.mean_cycles, 2006.2, 1e-9);
	cr_expect_float_eq(f.cycles_per_byte, 2006.2 / 32, 1e-9);
	cr_expect_float_eq(f.mean_ns, 961.2, 1e-9);
	cr_expect_float_eq(f.mbps, 32 / 961.2e-9 / 1e6, 1e-9);
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, f.mean_cycles), "2006");
	cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, f.cycles_per_byte), "62.7");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, f.mean_ns), "961 ns");
	cr_expect_str_eq(hg_fmt_mbps(b, sizeof b, f.mbps), "33.3");
	cr_expect_str_eq(hg_fmt_n(b, sizeof b, it, 5), "100000 (5 \u00d7 20000)");
}

Test(format, figures_unequal_rounds)
{
	const unsigned long long it[] = { 1, 3 };
	const unsigned long long cy[] = { 100, 700 };
	const unsigned long long ns[] = { 40, 120 };
	hg_figures_t f;

	cr_assert_eq(hg_figures(&f, it, cy, ns, 2, 8), 0);
	cr_expect_eq(f.n, 4ULL);
	cr_expect_float_eq(f.mean_cycles, 200.0, 1e-12);
	cr_expect_float_eq(f.cycles_per_byte, 25.0, 1e-12);
	cr_expect_float_eq(f.mean_ns, 40.0, 1e-12);
	cr_expect_float_eq(f.mbps, 200.0, 1e-9);
}

Test(format, figures_refuse_what_cannot_be_divided)
{
	const unsigned long long it[] = { 20000, 20000 };
	const unsigned long long cy[] = { 40124000, 40124000 };
	const unsigned long long ns[] = { 19224000, 19224000 };
	const unsigned long long zero[] = { 0, 0 };
	const unsigned long long huge[] = { 18446744073709551615ULL, 1 };
	hg_figures_t f;

	memset(&f, 0x55, sizeof f);
	cr_expect_eq(hg_figures(&f, it, cy, ns, 2, 0), -1);
	cr_expect_eq(f.n, 0ULL);
	cr_expect_eq(f.mean_cycles, 0.0);
	cr_expect_eq(f.mbps, 0.0);
	cr_expect_eq(hg_figures(&f, it, cy, ns, 0, 32), -1);
	cr_expect_eq(hg_figures(&f, zero, cy, ns, 2, 32), -1);
	cr_expect_eq(hg_figures(&f, it, cy, zero, 2, 32), -1);
	cr_expect_eq(hg_figures(&f, NULL, cy, ns, 2, 32), -1);
	cr_expect_eq(hg_figures(&f, it, NULL, ns, 2, 32), -1);
	cr_expect_eq(hg_figures(&f, it, cy, NULL, 2, 32), -1);
	cr_expect_eq(hg_figures(NULL, it, cy, ns, 2, 32), -1);
	cr_expect_eq(hg_figures(&f, huge, cy, ns, 2, 32), -1);
	/* zero cycles is a figure (a counter that did not count), not a division by zero */
	cr_expect_eq(hg_figures(&f, it, zero, ns, 2, 32), 0);
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, f.mean_cycles), "0");
}

/* ---- rows of the reference reports, recomputed from plausible trials ---- */

struct row {
	const char *what;
	unsigned long long bytes, per_round, cy_round, ns_round;
	size_t rounds;
	const char *message, *cycles, *cpb, *time, *mbps, *n;
};

static const struct row rows[] = {
	{ "hash-16 LLH-256 32 B", 32, 20000, 40124000, 19224000, 5,
	  "32 B", "2006", "62.7", "961 ns", "33.3", "100000 (5 \u00d7 20000)" },
	{ "hash-16 LLH-256 65536 B", 65536, 913, 913ULL * 2142000, 913ULL * 1022500, 5,
	  "65536 B", "2.14 M", "32.7", "1.02 ms", "64.1", "4565 (5 \u00d7 913)" },
	{ "hash-16 LLH-768 32 B", 32, 20000, 20000ULL * 10339, 20000ULL * 4940, 5,
	  "32 B", "10.3 k", "323.1", "4.94 \u00b5s", "6.5", "100000 (5 \u00d7 20000)" },
	{ "hash-06 Cuishen-512 128 B", 128, 20000, 20000ULL * 2685, 20000ULL * 998, 5,
	  "128 B", "2685", "21.0", "998 ns", "128.3", "100000 (5 \u00d7 20000)" },
	{ "hash-06 Cuishen-512 65536 B", 65536, 2451, 2451ULL * 679200, 2451ULL * 252100, 5,
	  "65536 B", "679.2 k", "10.4", "252 \u00b5s", "260.0", "12255 (5 \u00d7 2451)" },
	{ "hash-15 litchi_512 4096 B", 4096, 16439, 1645554000, 16439ULL * 37130, 5,
	  "4096 B", "100.1 k", "24.4", "37.1 \u00b5s", "110.3", "82195 (5 \u00d7 16439)" },
	{ "hash-15 litchi_1024 512 B", 512, 20000, 20000ULL * 26982, 20000ULL * 10020, 5,
	  "512 B", "27.0 k", "52.7", "10 \u00b5s", "51.1", "100000 (5 \u00d7 20000)" },
	{ "hash-15 litchi_1024 65536 B", 65536, 563, 563ULL * 3056000, 563ULL * 1133500, 5,
	  "65536 B", "3.06 M", "46.6", "1.13 ms", "57.8", "2815 (5 \u00d7 563)" },
	{ "hash-15 litchi_xof 4096 B", 4096, 9717, 9717ULL * 172400, 9717ULL * 64000, 5,
	  "4096 B", "172.4 k", "42.1", "64 \u00b5s", "64.0", "48585 (5 \u00d7 9717)" },
	{ "hash-21 Neulaser-512 16384 B", 16384, 1688, 1688ULL * 1024000, 1688ULL * 379600, 5,
	  "16384 B", "1.02 M", "62.5", "380 \u00b5s", "43.2", "8440 (5 \u00d7 1688)" },
	{ "hash-21 Neulaser-1024 32 B", 32, 20000, 20000ULL * 14323, 20000ULL * 5320, 5,
	  "32 B", "14.3 k", "447.6", "5.32 \u00b5s", "6.0", "100000 (5 \u00d7 20000)" },
	{ "hash-21 Neulaser-512 8192 B", 8192, 3289, 3289ULL * 557300, 3289ULL * 206800, 5,
	  "8192 B", "557.3 k", "68.0", "207 \u00b5s", "39.6", "16445 (5 \u00d7 3289)" },
};

Test(format, reference_report_rows)
{
	size_t r, i;

	for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		const struct row *w = &rows[r];
		unsigned long long it[8], cy[8], ns[8];
		hg_figures_t f;

		for (i = 0; i < w->rounds; i++) {
			it[i] = w->per_round;
			cy[i] = w->cy_round;
			ns[i] = w->ns_round;
		}
		cr_assert_eq(hg_figures(&f, it, cy, ns, w->rounds, w->bytes), 0, "%s", w->what);
		cr_expect_str_eq(hg_fmt_message(b, sizeof b, w->bytes), w->message, "%s", w->what);
		cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, f.mean_cycles), w->cycles, "%s", w->what);
		cr_expect_str_eq(hg_fmt_cpb(b, sizeof b, f.cycles_per_byte), w->cpb, "%s", w->what);
		cr_expect_str_eq(hg_fmt_time(b, sizeof b, f.mean_ns), w->time, "%s", w->what);
		cr_expect_str_eq(hg_fmt_mbps(b, sizeof b, f.mbps), w->mbps, "%s", w->what);
		cr_expect_str_eq(hg_fmt_n(b, sizeof b, it, w->rounds), w->n, "%s", w->what);
	}
}

Test(format, reference_report_strings)
{
	/* cells where the format alone decides */
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 679200), "679.2 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 8781), "8781");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 914900), "914.9 k");
	cr_expect_str_eq(hg_fmt_cycles(b, sizeof b, 4230000), "4.23 M");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1310), "1.31 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 1760000), "1.76 ms");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 97200), "97.2 \u00b5s");
	cr_expect_str_eq(hg_fmt_time(b, sizeof b, 506), "506 ns");
	cr_expect_str_eq(hg_fmt_kib(b, sizeof b, 1692), "1692 KiB");
	cr_expect_str_eq(hg_fmt_kib(b, sizeof b, 1828), "1828 KiB");
	cr_expect_str_eq(hg_fmt_sha_short(b, sizeof b,
		"978f6d2cfe261bd0000000000000000000000000000000000000000000000000"),
		"978f6d2cfe261bd0\u2026");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-28T15:05:46Z"), "2026-09-28T15:05:46");
	cr_expect_str_eq(hg_fmt_utc(b, sizeof b, "2026-09-29T08:43:52Z"), "2026-09-29T08:43:52");
}

Test(format, a_figure_with_its_interval_keeps_its_unit_and_a_significant_half_width)
{
	cr_expect_str_eq(hg_fmt_cpb_pm(b, sizeof b, 7.62, 0.04), "7.62 ± 0.04",
		"a decimal more rather than ± 0.0");
	cr_expect_str_eq(hg_fmt_cpb_pm(b, sizeof b, 1.544, 0.0031), "1.544 ± 0.003");
	cr_expect_str_eq(hg_fmt_cpb_pm(b, sizeof b, 9.2, 0.0), "9.2 ± 0.0", "no spread at all");
	cr_expect_str_eq(hg_fmt_cpb_pm(b, sizeof b, 9.7192, 0.2430), "9.7 ± 0.2");
	cr_expect_str_eq(hg_fmt_cpb_pm(b, sizeof b, 95.7, 12.25), "95.7 ± 12.3");
	cr_expect_str_eq(hg_fmt_cpb_pm(b, sizeof b, 9.7, -1), "9.7", "no interval: the figure alone");
	cr_expect_str_eq(hg_fmt_cycles_pm(b, sizeof b, 1183.4, 4.7), "1183 ± 5");
	cr_expect_str_eq(hg_fmt_cycles_pm(b, sizeof b, 657600, 2630), "657.6 k ± 2.6 k");
	cr_expect_str_eq(hg_fmt_cycles_pm(b, sizeof b, 9999.5, 20), "10.00 k ± 0.02 k",
		"the unit is the rounded figure's, a decimal more for the half-width");
	cr_expect_str_eq(hg_fmt_cycles_pm(b, sizeof b, 1183.4, 0.3), "1183.4 ± 0.3");
	cr_expect_str_eq(hg_fmt_cycles_pm(b, sizeof b, 1550000, 31000), "1.55 M ± 0.03 M");
	cr_expect_str_eq(hg_fmt_cycles_pm(b, sizeof b, 3061, NAN), "3061");
	cr_expect_str_eq(hg_fmt_cycles_pm(b, sizeof b, NAN, 3), NA);
}

/* What the downloads printed before hg_num_shortest: each precision printed by printf and read
 * back, the shortest that reads back kept. */
static void S_num_by_printf(char *out, size_t n, double v)
{
	int prec;
	for (prec = 15; prec <= 17; prec++) {
		snprintf(out, n, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
}

static void S_expect_same(double v)
{
	char want[64], got[64];
	S_num_by_printf(want, sizeof want, v);
	hg_num_shortest(got, sizeof got, v);
	cr_assert_str_eq(got, want, "%a: hg_num_shortest wrote %s, printf %s", v, got, want);
}

Test(format, shortest_reads_back_in_fewest_digits)
{
	char t[64];
	hg_num_shortest(t, sizeof t, 0.1);
	cr_expect_str_eq(t, "0.1");
	hg_num_shortest(t, sizeof t, 1.0 / 3);
	cr_expect_str_eq(t, "0.3333333333333333");
	hg_num_shortest(t, sizeof t, 209948872);
	cr_expect_str_eq(t, "209948872");
	hg_num_shortest(t, sizeof t, 6.666666666666667e-08);
	cr_expect_str_eq(t, "6.666666666666667e-08");
	hg_num_shortest(t, sizeof t, 0.30000000000000004);
	cr_expect_str_eq(t, "0.30000000000000004");
	hg_num_shortest(t, sizeof t, -0.0);
	cr_expect_str_eq(t, "-0");
}

/* Byte for byte what printf makes: the edges of %g's two notations, carries out of the first
 * digit, ties, the ends of the range, and a million doubles of every kind. */
Test(format, shortest_is_printfs_text)
{
	static const double edge[] = { 0, 1, -1, 0.5, 1e-4, 1e-5, 9.99999999999999e-5, 1e14, 1e15,
		1e16, 1e17, 999999999999999.9, 9999999999999998, 99999999999999999.0, 123456789012345678.0,
		0.000123456789012345678, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
		0.15, 0.25, 1.5, 2.5, 1e23, 9007199254740993.0, 0.1 + 0.2, 100, 1e-300, 4.35, 2.675 };
	unsigned long long x = 88172645463325252ULL;
	size_t i;

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		S_expect_same(edge[i]);
		S_expect_same(-edge[i]);
	}
	for (i = 0; i < 1000000; i++) {
		double v;
		/* xorshift64: any bit pattern, then the kinds of figures a record gives */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (i % 4) {
		case 0:
			memcpy(&v, &x, sizeof v);
			if (!isfinite(v))
				continue;
			break;
		case 1: /* mean cycles, per byte: a sum of counts over calls, over bytes */
			v = (double)(x >> 20) / (double)((x & 0xfffff) + 1);
			break;
		case 2: /* percentages and ratios near 1 */
			v = 100.0 * (double)(x >> 11) / 9007199254740992.0;
			break;
		default: /* decimal fractions with few digits, where ties and 15 digits are common */
			v = (double)(long long)(x % 100000000000ULL) / 1e6;
			break;
		}
		S_expect_same(v);
	}
}
