/* sentinel_work.h — the sentinel's fixed reference workload (sentinel_work.c), built once into
 * hashbench-measure with the project's flags, timed before and after every record. */
#ifndef HB_SENTINEL_WORK_H
#define HB_SENTINEL_WORK_H

#include <stdint.h>

#include "counter.h"

#define HB_SENTINEL_MESSAGE 4096u   /* bytes, hashed again and again: it stays in L1 */
#define HB_SENTINEL_BLOCKS 16384u   /* 64-byte blocks a reading: 1 MiB */
#define HB_SENTINEL_CHUNKS 16u     /* timed apart; a reading is the fastest, times this */
#define HB_SENTINEL_WORKLOAD "the SM3 compression function over a fixed 4 KiB message, " \
	"16384 blocks (1 MiB, about 10 ms here) timed as 16 chunks of 1024 blocks, a reading " \
	"being 16 times the fastest chunk, built into hashbench-measure"

typedef struct {
	uint64_t cycles, ns;
} hb_sentinel_reading;

/* One timed run of the workload (after a short untimed one that warms caches and clock): 16
 * times its fastest chunk, so that what the machine adds to one chunk is not counted. */
hb_sentinel_reading hb_sentinel_time(hb_counter *c);

#endif
