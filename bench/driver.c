/* driver.c — one run of the timing driver (hashbench-measure) in the sandbox: its command line
 * as the record states it and as the sandbox runs it, and its outcome as a record's status,
 * detail and result. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "hbsandbox.h"

void hb_driver_cmd_init(hb_driver_cmd *d, const hb_driver_setup *s, const char *library,
	const char *bytes, const char *calls, unsigned long long order_seed, int digest_bits)
{
	int n = 0;
	snprintf(d->num[0], sizeof(d->num[0]), "%s", bytes);
	snprintf(d->num[1], sizeof(d->num[1]), "%d", digest_bits);
	snprintf(d->num[2], sizeof(d->num[2]), "%d", s->cpu);
	snprintf(d->num[3], sizeof(d->num[3]), "%d", s->blocks);
	snprintf(d->num[4], sizeof(d->num[4]), "%u", s->block_us);
	snprintf(d->num[5], sizeof(d->num[5]), "%u", s->warmup_ms);
	snprintf(d->num[6], sizeof(d->num[6]), "%u", s->max_calls);
	snprintf(d->num[7], sizeof(d->num[7]), "%d", s->samples);
	snprintf(d->num[8], sizeof(d->num[8]), "%llu", order_seed);
	snprintf(d->num[9], sizeof(d->num[9]), "%s", calls ? calls : "");
	d->argv[n++] = (char *)s->exe;
	d->argv[n++] = "--library";
	d->argv[n++] = (char *)library;
	d->argv[n++] = "--bytes";
	d->argv[n++] = d->num[0];
	d->argv[n++] = "--digest-bits";
	d->argv[n++] = d->num[1];
	d->argv[n++] = "--cpu";
	d->argv[n++] = d->num[2];
	d->argv[n++] = "--counter";
	d->argv[n++] = (char *)s->counter;
	d->argv[n++] = "--blocks";
	d->argv[n++] = d->num[3];
	d->argv[n++] = "--block-us";
	d->argv[n++] = d->num[4];
	d->argv[n++] = "--warmup-ms";
	d->argv[n++] = d->num[5];
	d->argv[n++] = "--max-calls";
	d->argv[n++] = d->num[6];
	d->argv[n++] = "--samples";
	d->argv[n++] = d->num[7];
	d->argv[n++] = "--order-seed";
	d->argv[n++] = d->num[8];
	if (calls) {
		d->argv[n++] = "--calls";
		d->argv[n++] = d->num[9];
	}
	if (s->placement_seed) {
		snprintf(d->num[10], sizeof(d->num[10]), "%llu", s->placement_seed);
		d->argv[n++] = "--placement-seed";
		d->argv[n++] = d->num[10];
	}
	if (s->baton) {
		snprintf(d->num[11], sizeof(d->num[11]), "%d", HB_CHILD_BATON_FD);
		d->argv[n++] = "--baton-fd";
		d->argv[n++] = d->num[11];
		if (s->baton == 2) {
			d->argv[n++] = "--baton-lead";
			d->argv[n++] = "1";
		}
	}
	d->argv[n] = NULL;
	memcpy(d->run, d->argv, (size_t)n * sizeof(char *));
	d->run[2] = (char *)hb_sandbox_library_path(library);
	d->run[n++] = "--result-fd";
	d->run[n++] = "3";
	if (hb_sandbox_seccomp()) {
		d->run[n++] = "--filter-fd";
		d->run[n++] = "6";
		d->run[n++] = "--report-fd";
		d->run[n++] = "4";
	}
	d->run[n] = NULL;
}

const char *hb_driver_run(hb_child *run, json_t **result, char **detail, const hb_driver_cmd *d,
	const char *library, unsigned limit_s)
{
	return hb_driver_run_baton(run, result, detail, d, library, limit_s, -1);
}

const char *hb_driver_run_baton(hb_child *run, json_t **result, char **detail,
	const hb_driver_cmd *d, const char *library, unsigned limit_s, int baton_fd)
{
	const char *text;
	json_t *child;

	*result = NULL;
	*detail = NULL;
	hb_child_clear(run);
	if (hb_sandbox_exec_baton(run, library, limit_s, d->run, baton_fd) != 0) {
		*detail = hb_strdup(hb_error_last());
		return "error";
	}
	if (run->status == HB_CHILD_TIMEOUT) {
		*detail = run->code == SIGXCPU ?
			hb_sprintf("no result within %u s of CPU time: the child was killed", limit_s) :
			hb_sprintf("no result after %u s: the child was killed", limit_s);
		return "timeout";
	}
	if (run->status == HB_CHILD_CRASH || run->status == HB_CHILD_VIOLATION ||
		run->status == HB_CHILD_SETUP) {
		*detail = hb_child_describe(run);
		return hb_child_status_name(run);
	}
	text = run->result.data ? (const char *)run->result.data : "";
	child = *text ? json_loads(text, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
	if (!child) {
		*detail = hb_sprintf("the driver exited with status %d and gave no result", run->code);
		return "error";
	}
	if (json_object_get(child, "error")) {
		*detail = hb_strdup(json_string_value(json_object_get(child, "error")));
		json_decref(child);
		return "error";
	}
	if (run->code != 0 || (!json_is_array(json_object_get(child, "sizes")) &&
		!json_is_object(json_object_get(child, "memory")))) {
		*detail = hb_sprintf("the driver exited with status %d", run->code);
		json_decref(child);
		return "error";
	}
	*result = child;
	return "ok";
}
