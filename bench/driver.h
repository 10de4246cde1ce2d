/* driver.h — one run of the timing driver (hashbench-measure) in the sandbox. */
#ifndef HB_DRIVER_H
#define HB_DRIVER_H

#include <jansson.h>

#include "sandbox.h"

/* What every pass of a campaign passes to the driver. */
typedef struct {
	const char *exe;     /* the hashbench-measure program */
	const char *counter; /* the counter's name */
	int cpu, blocks, samples;
	unsigned block_us, warmup_ms, max_calls;
} hb_driver_setup;

/* The driver's command line for one pass: argv as the record states it (the library by its
 * path), run as the sandbox runs it (the library's copy, the result and filter descriptors).
 * num holds the numbers both point into. */
typedef struct {
	char *argv[32];
	char *run[40];
	char num[10][640];
} hb_driver_cmd;

/* bytes: the message sizes, comma-separated; calls: the calls per block of each (from an
 * earlier pass, so every pass times the same blocks), or NULL to calibrate; order_seed: the
 * shuffled order of the sizes in each round. */
void hb_driver_cmd_init(hb_driver_cmd *d, const hb_driver_setup *s, const char *library,
	const char *bytes, const char *calls, unsigned long long order_seed, int digest_bits);
/* Run the driver on library with a time limit. Returns the record's status ("ok", "error",
 * "timeout", "crash" or "violation"); *detail (malloc'd) says why when not ok, *result is the
 * driver's JSON object when ok (caller frees), and *run what the child did (its output). */
const char *hb_driver_run(hb_child *run, json_t **result, char **detail, const hb_driver_cmd *d,
	const char *library, unsigned limit_s);

#endif
