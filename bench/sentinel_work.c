/* sentinel_work.c — the sentinel workload: a dependent chain of 64-bit adds, rotates and xors
 * over a table that fits in L1, like the inner loop of a hash. It makes no system call and no
 * allocation, so only the core's speed and the time taken from it change its figure. */
#include "sentinel_work.h"

static volatile uint64_t S_sink;

static uint64_t S_run(uint64_t *table, uint32_t steps)
{
	uint64_t x = 0x73656e74696e656cULL; /* "sentinel" */
	uint32_t i;
	for (i = 0; i < steps; i++) {
		x += table[x & 511];
		x = (x << 13 | x >> 51) ^ i;
		table[i & 511] ^= x;
	}
	return x;
}

static void S_fill(uint64_t *table)
{
	uint64_t z = 0x9e3779b97f4a7c15ULL;
	unsigned i;
	for (i = 0; i < 512; i++) {
		z ^= z << 7;
		z ^= z >> 9;
		table[i] = z;
	}
}

hb_sentinel_reading hb_sentinel_time(hb_counter *c)
{
	static uint64_t table[512];
	hb_sentinel_reading r;
	uint64_t c0, t0;
	S_fill(table);
	S_sink ^= S_run(table, HB_SENTINEL_STEPS / 16);
	S_fill(table);
	t0 = hb_now_ns();
	c0 = hb_counter_read(c);
	S_sink ^= S_run(table, HB_SENTINEL_STEPS);
	r.cycles = hb_counter_read(c) - c0;
	r.ns = hb_now_ns() - t0;
	return r;
}
