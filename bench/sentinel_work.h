/* sentinel_work.h — the sentinel's fixed reference workload (sentinel_work.c), built once into
 * hashbench-measure with the project's flags, timed before and after every record. */
#ifndef HB_SENTINEL_WORK_H
#define HB_SENTINEL_WORK_H

#include <stdint.h>

#include "counter.h"

#define HB_SENTINEL_STEPS (1u << 22)
#define HB_SENTINEL_WORKLOAD "eight independent 64-bit add-rotate-xor lanes, 2^22 steps " \
	"(about 11 ms at 2.1 GHz), built into hashbench-measure"

typedef struct {
	uint64_t cycles, ns;
} hb_sentinel_reading;

/* One timed run of the workload (after a short untimed one that warms caches and clock). */
hb_sentinel_reading hb_sentinel_time(hb_counter *c);

#endif
