/* driver.h — one run of the timing driver (hashbench-measure) in the sandbox. */
#ifndef HB_DRIVER_H
#define HB_DRIVER_H

#include <jansson.h>

#include "sandbox.h"

/* What every record of a campaign passes to the driver. */
typedef struct {
	const char *exe;     /* the hashbench-measure program */
	const char *counter; /* the counter's name */
	int cpu, rounds;
	unsigned round_ms, warmup_ms, max_calls;
} hb_driver_setup;

/* The driver's command line for one record: argv as the record states it (the library by its
 * path), run as the sandbox runs it (the library's copy, the result and filter descriptors).
 * num holds the numbers both point into. */
typedef struct {
	char *argv[24];
	char *run[32];
	char num[8][32];
} hb_driver_cmd;

void hb_driver_cmd_init(hb_driver_cmd *d, const hb_driver_setup *s, const char *library,
	unsigned long long bytes, int digest_bits);
/* Run the driver on library with a time limit. Returns the record's status ("ok", "error",
 * "timeout", "crash" or "violation"); *detail (malloc'd) says why when not ok, *result is the
 * driver's JSON object when ok (caller frees), and *run what the child did (its output). */
const char *hb_driver_run(hb_child *run, json_t **result, char **detail, const hb_driver_cmd *d,
	const char *library, unsigned limit_s);

#endif
