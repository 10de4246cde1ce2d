/* counter.h — the one clock module of the measurement driver: the best cycle counter the
 * machine offers, and CLOCK_MONOTONIC_RAW nanoseconds beside it. No dependencies but libc. */
#ifndef HB_COUNTER_H
#define HB_COUNTER_H

#include <stdint.h>

typedef enum { HB_COUNTER_PERF, HB_COUNTER_TSC, HB_COUNTER_CNTVCT, HB_COUNTER_NONE } hb_counter_kind;

typedef struct {
	hb_counter_kind kind;
	int fd;            /* perf event, -1 otherwise */
	double hz;         /* ticks per second; 0 for perf-cycles (core cycles, not a clock) */
} hb_counter;

/* Open the counter called name ("perf-cycles", "tsc", "cntvct"), or the best available when
 * name is NULL or "auto". Returns 0, or -1 when that counter is not available here. */
int hb_counter_open(hb_counter *c, const char *name);
void hb_counter_close(hb_counter *c);
const char *hb_counter_name(const hb_counter *c);
uint64_t hb_counter_read(const hb_counter *c);
uint64_t hb_now_ns(void);
/* Ticks per second of a clock-like counter, measured against CLOCK_MONOTONIC_RAW. */
double hb_counter_calibrate_hz(const hb_counter *c, unsigned ms);

/* The calibration rule: calls per round so that a round lasts round_ns, at least 1 and at
 * most max_calls, from the time one call took during the warm-up. */
uint64_t hb_calls_per_round(double per_call_ns, double round_ns, uint64_t max_calls);

#endif
