/* run.h — what the parts of a campaign share: its state and the steps campaign.c (set-up,
 * system.json), katsummary.c (KAT evidence), record.c (one record) and schedule.c (the order
 * of the work, parallel and sharded) call on each other. Internal to bench/. */
#ifndef HB_RUN_H
#define HB_RUN_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "counter.h"
#include "driver.h"
#include "hashbench.h"

#define NSIZES_MAX 64
#define MAX_RETRIES 2          /* a disturbed record is measured again at most this often */
#define DISTURBED_PCT 10.0     /* a round this far from the median round is a disturbance */

typedef struct {
	const char *name;
	int rounds;
	unsigned round_ms, warmup_ms, max_calls, time_limit_s;
} hb_run_profile;

typedef struct hb_run_plan hb_run_plan;

typedef struct {
	const hb_campaign_opts *o;
	const hb_run_profile *prof;
	unsigned long long sizes[NSIZES_MAX];
	size_t nsizes;
	char *sysdir;
	hb_env *env;
	hb_counter counter;
	double counter_hz;
	unsigned long long counter_read_cycles;
	double empty_call_cycles;  /* mean cycles of an empty CryptHash in the timing loop; <0 unknown */
	double spread_limit;
	char start[32];
	hb_campaign_summary sum;
	size_t done, total;
	uint64_t t_start;
	int tty;
	int cpus[HB_MAX_CPUS];     /* the timing CPUs; cpus[0] is the one system.json describes */
	size_t ncpus;
	int cpu;                   /* the timing CPU of the record being measured */
	unsigned jobs;             /* processes building and checking KATs */
	json_t *shard;             /* system.json's "shard" object, NULL when not sharded */
	json_t *durations;         /* campaign.durations: where the time went */
	hb_run_plan *plan;         /* the libraries this run takes */
} hb_run;

/* campaign.c */
void hb_run_note(hb_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hb_run_progress(hb_run *r, const char *what, const char *result);
void hb_utc_now(char out[32]);
json_t *hb_json_str_or_null(const char *s);
json_t *hb_json_int_or_null(long long v);
int hb_json_write(const char *path, json_t *j);

/* katsummary.c */
int hb_run_catalog_entry(const hb_run *r, const hb_algorithm *alg);
/* Check one library (b NULL: its build failed with build_error); the result ("PASS", "FAIL",
 * "ERROR"), static text. */
const char *hb_run_kat(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *build_error);
int hb_run_kat_manifest(const hb_run *r, const hb_algorithm *alg);

/* record.c */
int hb_cmp_u64(const void *x, const void *y);
json_t *hb_run_build_json(const hb_build_result *b, const hb_instance *inst);
/* "guide", or "guide+overrides" when algorithm.json added flags or -D defines. */
const char *hb_run_flags_label(const hb_instance *inst);
/* {defines, rewrites, define_flags} of an instance algorithm.json declares, else NULL. */
json_t *hb_run_declared_json(const hb_instance *inst);
char *hb_run_record_path(const hb_run *r, const hb_instance *inst, unsigned long long bytes);
int hb_run_record_reusable(const hb_run *r, const char *path, const hb_build_result *b);
hb_driver_setup hb_run_driver(const hb_run *r);
/* Measure one record on r->cpu and write it; its status ("ok", "error", …), static text. */
const char *hb_run_measure(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *kat_result, unsigned long long bytes, unsigned long long static_bytes);

/* schedule.c: the libraries of cat this run takes (--only, --shard) into r->plan, r->total and
 * r->shard; then build, check and time them (system.json written), counting into out. */
int hb_run_plan_make(hb_run *r, const hb_catalog *cat);
void hb_run_plan_free(hb_run_plan *p);
int hb_run_schedule(hb_campaign_summary *out, hb_run *r, const hb_catalog *cat);

#endif
