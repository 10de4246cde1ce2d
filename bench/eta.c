/* eta.c — how long a run of steps of a few kinds has left: each kind's mean share of the wall
 * clock so far, times its steps still to come. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hbutil.h"

void hb_eta_start(hb_eta *out, double now_s)
{
	memset(out, 0, sizeof(*out));
	out->last_s = now_s;
}

void hb_eta_plan(hb_eta *e, unsigned kind, size_t steps)
{
	if (kind < HB_ETA_KINDS)
		e->left[kind] += steps;
}

void hb_eta_drop(hb_eta *e, unsigned kind, size_t steps)
{
	if (kind < HB_ETA_KINDS)
		e->left[kind] -= steps < e->left[kind] ? steps : e->left[kind];
}

/* A step's share is the wall clock from the hand-back before it to its own, not its own duration:
 * steps run in a pool (builds several at a time, passes one per timing CPU, with --overlap both
 * at once) and come back in order, so that gap is what one more step of its kind costs the run
 * at the parallelism actually in use, whatever ran beside it; and the shares add up to the wall
 * clock, so kinds that overlap are not counted twice. A step's own duration divided by the
 * parallelism would need how many ran beside it, which changes (the last builds, builds beside
 * passes). The first steps of a kind run in parallel carry its start-up (a first build's whole
 * duration), so an early estimate is high and settles as more come back. */
void hb_eta_done(hb_eta *e, unsigned kind, size_t steps, double now_s)
{
	double share = now_s > e->last_s ? now_s - e->last_s : 0;
	if (now_s > e->last_s)
		e->last_s = now_s;
	if (kind >= HB_ETA_KINDS || steps == 0)
		return;
	hb_eta_drop(e, kind, steps);
	e->done[kind] += steps;
	e->seconds[kind] += share;
}

double hb_eta_left(const hb_eta *e, int *partial)
{
	double left = 0;
	int known = 0;
	unsigned k;

	*partial = 0;
	for (k = 0; k < HB_ETA_KINDS; k++) {
		if (!e->left[k])
			continue;
		if (!e->done[k]) {
			*partial = 1;
			continue;
		}
		known = 1;
		left += e->seconds[k] / (double)e->done[k] * (double)e->left[k];
	}
	return known || !*partial ? left : -1;
}

void hb_eta_clock(char *out, size_t cap, double s)
{
	unsigned long long t = s > 0 && s < 1e12 ? (unsigned long long)llround(s) : 0;
	if (t < 3600)
		snprintf(out, cap, "%llu:%02llu", t / 60, t % 60);
	else
		snprintf(out, cap, "%llu:%02llu:%02llu", t / 3600, t / 60 % 60, t % 60);
}

void hb_eta_text(char *out, size_t cap, const hb_eta *e, double elapsed_s)
{
	char elapsed[32], left[32];
	int partial;
	double s = hb_eta_left(e, &partial);
	size_t k, to_come = 0;

	for (k = 0; k < HB_ETA_KINDS; k++)
		to_come += e->left[k];

	hb_eta_clock(elapsed, sizeof(elapsed), elapsed_s);
	hb_eta_clock(left, sizeof(left), s);
	if (s < 0 || (partial && s < 0.5)) /* "at least 0:00" says nothing */
		snprintf(out, cap, "%s elapsed, estimating the time left", elapsed);
	else if (!to_come)
		snprintf(out, cap, "%s elapsed", elapsed);
	else
		snprintf(out, cap, "%s elapsed, %s %s left", elapsed, partial ? "at least" : "about", left);
}
