/* sentinel_work.c — the sentinel workload: eight independent 64-bit add-rotate-xor lanes, the
 * wide integer work of a hash's rounds, so that it slows down for what slows hash code: a lower
 * clock, time taken from the CPU, and a busy sibling thread sharing the core's execution units
 * (a dependent chain of single operations would not notice that). It makes no system call and
 * touches no memory, so nothing else changes its figure. */
#include "sentinel_work.h"

static volatile uint64_t S_sink;

#define ROTL(x, n) ((x) << (n) | (x) >> (64 - (n)))

static uint64_t S_run(uint32_t steps)
{
	uint64_t a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5, a5 = 6, a6 = 7, a7 = 8;
	uint32_t i;
	for (i = 0; i < steps; i++) {
		a0 = ROTL(a0 + a1, 13) ^ i;
		a1 = ROTL(a1 + a2, 17) ^ a0;
		a2 = ROTL(a2 + a3, 29) ^ i;
		a3 = ROTL(a3 + a0, 41) ^ a2;
		a4 = ROTL(a4 + a5, 11) ^ i;
		a5 = ROTL(a5 + a6, 23) ^ a4;
		a6 = ROTL(a6 + a7, 37) ^ i;
		a7 = ROTL(a7 + a4, 43) ^ a6;
	}
	return a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
}

hb_sentinel_reading hb_sentinel_time(hb_counter *c)
{
	hb_sentinel_reading r;
	uint64_t c0, t0;
	S_sink ^= S_run(HB_SENTINEL_STEPS / 4); /* caches, branch predictors and the clock warm */
	t0 = hb_now_ns();
	c0 = hb_counter_read(c);
	S_sink ^= S_run(HB_SENTINEL_STEPS);
	r.cycles = hb_counter_read(c) - c0;
	r.ns = hb_now_ns() - t0;
	return r;
}
