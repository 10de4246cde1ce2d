/* test_eta.c — the time a run has left as a user reads it: each kind of step estimated from its
 * own kind (slow builds do not swell the passes to come, nor quick passes shrink the builds), the
 * parallelism in use counted, no estimate before a step of a kind to come is done, and the
 * clock times m:ss and h:mm:ss. */
#include <string.h>

#include "support.h"

enum { BUILD, PASS, RECORD };

/* steps of kind handed back one after another, each gap_s after the one before, from *t. */
static void S_steps(hb_eta *e, unsigned kind, size_t steps, double gap_s, double *t)
{
	size_t i;
	for (i = 0; i < steps; i++) {
		*t += gap_s;
		hb_eta_done(e, kind, 1, *t);
	}
}

static const char *S_text(const hb_eta *e, double elapsed_s)
{
	static char out[128];
	hb_eta_text(out, sizeof(out), e, elapsed_s);
	return out;
}

Test(eta, nothing_is_estimated_before_a_step_is_done)
{
	hb_eta e;
	int partial;
	hb_eta_start(&e, 2.0);
	hb_eta_plan(&e, BUILD, 10);
	hb_eta_plan(&e, PASS, 1000);
	cr_expect_lt(hb_eta_left(&e, &partial), 0);
	cr_expect_str_eq(S_text(&e, 4.6), "0:05 elapsed, estimating the time left");
}

Test(eta, slow_builds_do_not_swell_the_quick_passes_to_come)
{
	hb_eta e;
	double t = 0, left, all_steps;
	int partial;
	hb_eta_start(&e, t);
	hb_eta_plan(&e, BUILD, 10);
	hb_eta_plan(&e, PASS, 1000);
	S_steps(&e, BUILD, 10, 30.0, &t); /* 10 builds of 30 s: 300 s */
	S_steps(&e, PASS, 5, 0.2, &t);    /* the first 5 passes of 0.2 s */
	left = hb_eta_left(&e, &partial);
	all_steps = t / 15 * 995;         /* one mean over every step: what it was before */
	cr_expect_not(partial);
	cr_expect_float_eq(left, 995 * 0.2, 1e-6, "995 passes of 0.2 s left: %f s", left);
	cr_expect_gt(all_steps, 50 * left, "an average over all steps would say %f s", all_steps);
	cr_expect_str_eq(S_text(&e, t + 3), "5:04 elapsed, about 3:19 left");
}

Test(eta, quick_passes_do_not_shrink_the_slow_builds_to_come)
{
	hb_eta e;
	double t = 0;
	int partial;
	hb_eta_start(&e, t);
	hb_eta_plan(&e, BUILD, 20);
	hb_eta_plan(&e, PASS, 100);
	/* the builds of a library each followed by its first pass (--overlap) */
	S_steps(&e, BUILD, 1, 10.0, &t);
	S_steps(&e, PASS, 1, 0.5, &t);
	S_steps(&e, BUILD, 1, 10.0, &t);
	S_steps(&e, PASS, 1, 0.5, &t);
	cr_expect_float_eq(hb_eta_left(&e, &partial), 18 * 10.0 + 98 * 0.5, 1e-6);
	cr_expect_not(partial);
}

/* Four builds at a time, each 8 s: they come back four at once every 8 s, so the run spends 2 s
 * of its wall clock a build, not 8. */
Test(eta, steps_run_side_by_side_cost_their_share_of_the_wall_clock)
{
	hb_eta e;
	double t = 0;
	int partial, round, k;
	hb_eta_start(&e, t);
	hb_eta_plan(&e, BUILD, 40);
	for (round = 1; round <= 2; round++)
		for (k = 0; k < 4; k++)
			hb_eta_done(&e, BUILD, 1, 8.0 * round + 0.01 * k);
	cr_expect_float_eq(hb_eta_left(&e, &partial), 32 * 16.03 / 8, 1e-6,
		"32 builds left, 2 s of the wall clock each");
	cr_expect_str_eq(S_text(&e, 16.03), "0:16 elapsed, about 1:04 left");
}

Test(eta, a_kind_not_yet_begun_leaves_a_lower_bound)
{
	hb_eta e;
	double t = 0;
	int partial;
	hb_eta_start(&e, t);
	hb_eta_plan(&e, BUILD, 4);
	hb_eta_plan(&e, PASS, 40);
	S_steps(&e, BUILD, 1, 90.0, &t);
	cr_expect_float_eq(hb_eta_left(&e, &partial), 3 * 90.0, 1e-6);
	cr_expect(partial, "the passes have no estimate yet");
	cr_expect_str_eq(S_text(&e, t), "1:30 elapsed, at least 4:30 left");
	S_steps(&e, BUILD, 3, 90.0, &t);
	/* the builds are over and no pass is done: nothing to go by */
	cr_expect_lt(hb_eta_left(&e, &partial), 0);
	cr_expect_str_eq(S_text(&e, t), "6:00 elapsed, estimating the time left");
}

Test(eta, a_lower_bound_below_a_second_is_no_estimate)
{
	hb_eta e;
	double t = 0;
	hb_eta_start(&e, t);
	hb_eta_plan(&e, BUILD, 2);
	hb_eta_plan(&e, PASS, 40);
	S_steps(&e, BUILD, 1, 0.3, &t);
	cr_expect_str_eq(S_text(&e, t), "0:00 elapsed, estimating the time left",
		"not \"at least 0:00 left\"");
}

Test(eta, steps_that_will_not_run_take_no_time_and_do_not_dilute_the_mean)
{
	hb_eta e;
	double t = 0;
	int partial;
	hb_eta_start(&e, t);
	hb_eta_plan(&e, BUILD, 3);
	hb_eta_plan(&e, PASS, 30);
	S_steps(&e, BUILD, 3, 5.0, &t);
	hb_eta_drop(&e, PASS, 10); /* a library that failed its check: its 10 passes not run */
	S_steps(&e, PASS, 2, 1.0, &t);
	cr_expect_float_eq(hb_eta_left(&e, &partial), 18 * 1.0, 1e-6);
	hb_eta_drop(&e, PASS, 100); /* more than are left: none left, never fewer */
	cr_expect_float_eq(hb_eta_left(&e, &partial), 0, 1e-9);
	cr_expect_not(partial);
	cr_expect_str_eq(S_text(&e, t), "0:17 elapsed", "nothing to come: no estimate shown");
}

Test(eta, work_outside_the_plan_is_charged_to_no_kind)
{
	hb_eta e;
	double t = 0;
	int partial;
	hb_eta_start(&e, t);
	hb_eta_plan(&e, PASS, 10);
	hb_eta_plan(&e, RECORD, 10);
	S_steps(&e, PASS, 10, 1.0, &t);
	t += 50;
	hb_eta_done(&e, PASS, 0, t); /* a pass more: 50 s */
	S_steps(&e, RECORD, 2, 0.5, &t);
	cr_expect_float_eq(hb_eta_left(&e, &partial), 8 * 0.5, 1e-6,
		"the records' mean is not swollen by the pass more before them");
	cr_expect_float_eq(e.seconds[PASS], 10.0, 1e-9);
}

Test(eta, clock_times_are_m_ss_then_h_mm_ss)
{
	static const struct {
		double s;
		const char *text;
	} cases[] = { { 0, "0:00" }, { -3, "0:00" }, { 7.4, "0:07" }, { 59.6, "1:00" },
		{ 754, "12:34" }, { 3599.4, "59:59" }, { 3600, "1:00:00" }, { 3723, "1:02:03" },
		{ 36000 + 59, "10:00:59" } };
	char out[32];
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hb_eta_clock(out, sizeof(out), cases[i].s);
		cr_expect_str_eq(out, cases[i].text, "%f s", cases[i].s);
	}
}
