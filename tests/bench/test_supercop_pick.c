/* test_supercop_pick.c — which compiler line of a SUPERCOP implementation is kept
 * (supercop_pick.c): the lines that pass timed in turns with the fastest by try's median, the
 * fastest beyond noise (or the first line within noise of it) kept and the lines within noise of
 * the kept one named, on lines of known speed. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "hbkat.h"
#include "support.h"

/* Lines of known speed: each run the line's true cycles, off by a small jitter that repeats,
 * counted per line. */
typedef struct {
	double speed[8];
	size_t runs[8];
} S_lines;

static double S_time_one(void *ctx, size_t line)
{
	S_lines *l = ctx;
	static const double jitter[] = { 1.000, 1.002, 0.999, 1.001, 0.998, 1.0015 };
	double t = l->speed[line];
	if (t < 0)
		return -1; /* a line whose run fails */
	return t * jitter[l->runs[line]++ % (sizeof(jitter) / sizeof(jitter[0]))];
}

static int S_pick(hb_sc_pick_line *pl, S_lines *l, const double *try_cycles, const int *passes,
	size_t n)
{
	hb_sc_pick_fns fns = { S_time_one, l };
	size_t i;
	memset(pl, 0, n * sizeof(*pl));
	for (i = 0; i < n; i++) {
		pl[i].passes = passes[i];
		pl[i].cycles = try_cycles[i];
	}
	return hb_sc_pick(pl, n, &fns, HB_SC_PICK_ROUNDS, HB_SC_PICK_NOISE_PCT);
}

/* The fastest by one try median (line 1: a lucky run) is slower in turns than lines 0 and 2,
 * which are within 0.3 % of each other: line 0 is kept, line 2 named within noise of it. */
Test(supercop_pick, a_lucky_median_is_not_kept_and_equals_are_named)
{
	S_lines l = { { 1000, 1100, 1003, 1300 }, { 0 } };
	const double try_cycles[] = { 1010, 990, 1012, 1290 };
	const int passes[] = { 1, 1, 1, 1 };
	hb_sc_pick_line pl[4];
	int kept = S_pick(pl, &l, try_cycles, passes, 4);

	cr_expect_eq(kept, 0, "the fastest in turns is kept, not the fastest by one median");
	cr_expect_float_eq(pl[1].ratio, 1.0, 1e-12, "the candidate's own ratio");
	cr_expect(pl[0].ratio > 0.90 && pl[0].ratio < 0.92, "%g", pl[0].ratio);
	cr_expect_eq(pl[0].rounds, HB_SC_PICK_ROUNDS);
	cr_expect(pl[2].within_noise, "0.3 %% slower than the kept: within noise");
	cr_expect_not(pl[1].within_noise, "10 %% slower: not within noise");
	cr_expect_not(pl[3].within_noise);
	cr_expect_eq(l.runs[1], 3 * HB_SC_PICK_ROUNDS, "the candidate ran against each other line");
}

/* All alike (one library does the work whatever the line): no line is faster than the candidate
 * beyond noise, every line is within noise of it, and the first line of the file is kept, not
 * whichever the rounds put first; a line that failed its checksums is never run. */
Test(supercop_pick, lines_alike_keep_the_first_and_name_the_others)
{
	S_lines l = { { 500, 501, 499.5, 500 }, { 0 } };
	const double try_cycles[] = { 505, 498, 503, 400 };
	const int passes[] = { 1, 1, 1, 0 };
	hb_sc_pick_line pl[4];
	int kept = S_pick(pl, &l, try_cycles, passes, 4);

	cr_expect_eq(kept, 0, "a tie: the first line of the file is kept");
	cr_expect(pl[1].within_noise && pl[2].within_noise);
	cr_expect_not(pl[0].within_noise, "the kept line is not named beside itself");
	cr_expect_not(pl[3].within_noise);
	cr_expect_eq(l.runs[3], 0, "a line that failed is not timed");
	cr_expect(pl[3].ratio < 0);
}

/* The same lines measured twice, a lucky try median making line 2 the candidate once and line 1
 * the next time (line 2 the faster by 0.2 %, within noise): the line kept is line 1, the first of
 * the tie, both times, and line 2 is named within noise of it; line 0, 5 % slower, and line 3,
 * 3 % slower, are never named. */
Test(supercop_pick, a_tie_measured_again_keeps_the_same_line)
{
	S_lines once = { { 1050, 1000, 998, 1030 }, { 0 } }, again = once;
	const double lucky_2[] = { 1060, 1003, 990, 1040 }, lucky_1[] = { 1060, 990, 1003, 1040 };
	const int passes[] = { 1, 1, 1, 1 };
	hb_sc_pick_line pl[4], ql[4];

	cr_expect_eq(S_pick(pl, &once, lucky_2, passes, 4), 1, "line 2 the candidate");
	cr_expect_eq(S_pick(ql, &again, lucky_1, passes, 4), 1, "line 1 the candidate");
	cr_expect(pl[2].within_noise && ql[2].within_noise, "the other of the tie is named");
	cr_expect_not(pl[0].within_noise || ql[0].within_noise);
	cr_expect_not(pl[3].within_noise || ql[3].within_noise, "%g", pl[3].ratio);
}

/* A line whose runs fail in turns gets no ratio and is not named; none passing: -1. */
Test(supercop_pick, failed_runs_and_no_line_passing)
{
	S_lines l = { { 800, -1 }, { 0 } };
	const double try_cycles[] = { 800, 790 };
	const int passes[] = { 1, 1 }, none[] = { 0, 0 };
	hb_sc_pick_line pl[2];

	cr_expect_eq(S_pick(pl, &l, try_cycles, passes, 2), 1, "the candidate, though it then failed");
	cr_expect(pl[0].ratio < 0 && !pl[0].within_noise);
	cr_expect_eq(S_pick(pl, &l, try_cycles, none, 2), -1);
}
