/* hbcampaign.h — the campaign's steps: its options and state, the plan and order of its work
 * (schedule.c), one pass of a library (passes.c), the watch on the machine's speed (sentinel.c),
 * one record (record.c), the KAT evidence (katsummary.c), the system's history of campaigns and
 * the interval's floor from it (history.c) and the campaign as a whole, system.json included
 * (campaign.c). */
#ifndef HB_CAMPAIGN_H
#define HB_CAMPAIGN_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "hbbuild.h"
#include "hbkat.h"
#include "hbmeasure.h"
#include "hbsandbox.h"
#include "hbtiming.h"
#include "hbutil.h"

/* ---- the campaign (campaign.c) ---- */

#define HB_MAX_CPUS 16

typedef struct {
	const char *system;       /* name of this machine's evidence folder */
	const char *profile;      /* "guide" or "quick" */
	const char *submissions;  /* folder of algorithms */
	const char *supercop;     /* a SUPERCOP tree, or NULL */
	const char *compilers;    /* SUPERCOP: okcompilers/c-style file of settings to try, or NULL */
	const char *only;         /* comma-separated algorithm ids, or NULL for all */
	const char *data_dir;     /* evidence root (data/) */
	int cpus[HB_MAX_CPUS];    /* CPUs to time on, one library each at a time */
	size_t ncpus;             /* 0: the last CPU this process may use */
	unsigned jobs;            /* processes building and checking KATs; 0: one per CPU */
	int overlap;              /* let builds and KAT checks run while timing */
	unsigned shard_index;     /* this run takes shard shard_index of shard_count (1-based); */
	unsigned shard_count;     /* 0: the whole campaign */
	int fresh;                /* start over instead of resuming */
	int time_failed;          /* time libraries whose KAT check did not pass */
	unsigned kat_sets;        /* mask of KAT sets; 0: 2_12 and 2_23 */
	const char *sizes;        /* comma-separated message sizes, or NULL for the profile's */
	unsigned time_limit_s;    /* per child process; 0: the profile's */
	const char *work;         /* build and scratch folder */
	const char *profiles;     /* build profiles file, NULL: bundled */
	const char *measure_exe;  /* the hashbench-measure driver */
	const char *env_root;     /* "/" (tests: a recorded tree) */
	FILE *progress;           /* stderr */
	double spread_limit_pct;  /* a figure whose spread exceeds this is flagged; 0: 5 % */
	double sentinel_limit_pct; /* a pass whose sentinel is further off is measured again; 0: calibrated */
	int no_wait;              /* stop instead of waiting when a timing CPU is another campaign's */
	unsigned passes;          /* passes over every library; 0: the profile's */
	double precision_pct;     /* --precision: passes more until each interval is this narrow;
	                           * 0: not asked (an interval wider than HB_TARGET_PCT is wide) */
	unsigned long long core_hz; /* --core-hz: the core's fixed clock, converting the ticks of a
	                           * counter that is not the core's clock to cycles; 0: none */
	int paired_passes;        /* --paired-passes: each library's passes side by side with the
	                           * anchor; 0: HB_PAIRED_PASSES, -1: none */
	unsigned long long seed;  /* --seed: an earlier campaign's order and placement (its
	                           * campaign.seed), below 2^63; 0: drawn anew */
} hb_campaign_opts;

typedef struct {
	size_t measured, kept, failed_records, kat_failed, build_failed, unstable;
	size_t kat_unverified; /* timed without checksums to compare with (SUPERCOP's unknown) */
	size_t remeasured, disturbed; /* records with a pass left out; unconfirmed headlines */
	size_t wide;              /* headlines whose interval is wider than the target */
	size_t passes_left_out;   /* passes the machine disturbed (kept as evidence only) */
	size_t passes_more;       /* passes beyond the profile's: unconfirmed or wide figures */
	double more_s;            /* the time those took */
	double median_half_pct;   /* the median interval half-width, %; < 0 without headlines */
	double target_pct;        /* an interval wider than this is wide */
} hb_campaign_summary;

/* Run a whole campaign; 0 when it ran to its end (failures of libraries are counted in out,
 * not returned), negative when it could not run (bad arguments, unwritable data folder). */
int hb_campaign_run(hb_campaign_summary *out, const hb_campaign_opts *o);
/* The message sizes of --sizes list, or the profile's without one (ebash: eBASH's lengths
 * too, else the guide's), into sizes (room for NSIZES_MAX); an error naming the size otherwise. */
int hb_sizes_parse(unsigned long long *sizes, size_t *nsizes, const char *list, int ebash);
/* The last CPU this process may run on: the timing CPU without --cpu. */
int hb_default_cpu(void);
/* The system.json a campaign with these options would write (caller frees). */
int hb_campaign_system_json(char **out, const hb_campaign_opts *o);

/* ---- the steps, and the state they share ---- */

#define NSIZES_MAX 64
#define MAX_RETRIES 2          /* a library's disturbed passes are measured again at most this often */
#define HB_PRECISION_ROUNDS 3  /* --precision: at most this many times the profile's passes more */
#define HB_SENTINEL_FLOOR_PCT 3.0 /* the sentinel's limit is never below this */
#define HB_SENTINEL_SIGMAS 3.5    /* nor below this many robust standard deviations of its noise */
#define HB_SENTINEL_REFERENCE_Q 0.10 /* a pass is judged against this quantile of the readings */
#define HB_SWITCHES_BASE 5.0      /* a pass switched out against its will more often than this */
#define HB_SWITCHES_PER_S 20.0    /* plus this per second it timed, shared its CPU */
#define HB_STEAL_MIN_MS 30.0      /* a pass from which the host stole more than this */
#define HB_STEAL_PCT 25.0         /* and more than this share of its time, is disturbed */
#define HB_HEADLINE_ESTIMATOR "min-of-pass-minima"
#define HB_CONFIRM_PCT 2.0        /* a headline is confirmed by a second pass this close */
#define HB_INTERVAL_METHOD "bootstrap-min-of-passes"
#define HB_INTERVAL_LEVEL 0.95
#define HB_INTERVAL_FLOOR_PCT 0.4  /* the default floor: no interval is narrower than ± this
                                    * (calibrated: A/A) unless the history sets it (history.c) */
#define HB_HISTORY_MIN 3           /* earlier campaigns the history needs to set the floor */
#define HB_HISTORY_KEEP 50         /* history.json keeps the last this many campaigns */
#define HB_HISTORY_FLOOR_MIN_PCT 0.2  /* a floor from the history is never below this */
#define HB_HISTORY_FLOOR_MAX_PCT 10.0 /* nor above this */
#define HB_HISTORY_QUANTILE 0.90      /* the floor: this share of the yardsticks' figures lay
                                       * within it of their own median (calibrated: A/A) */
#define HB_TARGET_PCT 2.0          /* an interval wider than ± this is wide, without --precision */

/* A campaign's measuring: passes over every library, each timing every size in blocks. */
typedef struct {
	const char *name;
	int passes, blocks, samples;
	unsigned block_us, warmup_ms, max_calls, time_limit_s;
} hb_run_profile;

typedef struct hb_run_plan hb_run_plan;
typedef struct hb_sentinel hb_sentinel;

/* The interval's floor: no interval is narrower than ± pct (history.c). */
typedef struct {
	double pct;
	const char *source;       /* "history" or "default" (static) */
	const char *why;          /* how it was set, one phrase (static) */
	size_t campaigns;         /* the earlier campaigns it was drawn from (0: default) */
	size_t figures;           /* the yardstick figures it was drawn from (0: the sentinel's) */
	double drift_pct;         /* the machine's drift between campaigns, %; < 0 when default */
	double sentinel_median;   /* the median of those campaigns' sentinel best, cycles; <= 0
	                           * without a history */
} hb_floor;

typedef struct {
	const hb_campaign_opts *o;
	const hb_run_profile *prof;
	hb_run_profile prof_own;   /* the profile with --passes, when given */
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
	hb_sentinel *sentinel;     /* the watch on the machine's speed */
	json_t *sentinel_batch;    /* readings of the record being measured, for the parent */
	json_t *half_widths;       /* the interval half-widths of the records written, % */
	double target_pct;         /* an interval wider than this is wide (--precision) */
	int lock_fds[HB_MAX_CPUS]; /* the timing CPUs' locks, -1 when not held */
	hb_floor floor;            /* the interval's floor, set at the start from the history */
	json_t *history;           /* history.json's campaigns; NULL when damaged (left untouched) */
	double speed_pct;          /* this campaign's sentinel best against its history's median, %
	                            * (> 0: slower); NAN until the end or without 3 earlier */
	size_t speed_of;           /* the earlier campaigns that median was taken over */
	unsigned long long seed;   /* drawn per campaign: each pass's order and placement */
	unsigned paired_passes;    /* each library's passes side by side with the anchor (0: none) */
	const hb_instance *anchor; /* the library every other is paired with; NULL: none */
} hb_run;

/* katsummary.c */
int hb_run_catalog_entry(const hb_run *r, const hb_algorithm *alg);
/* A KAT result as static text: PASS, FAIL, UNVERIFIED (nothing to compare with), else ERROR. */
const char *hb_run_kat_result(const char *result);
/* Check one library (b NULL: its build failed with build_error); the result ("PASS", "FAIL",
 * "ERROR"), static text. */
const char *hb_run_kat(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *build_error);
int hb_run_kat_manifest(const hb_run *r, const hb_algorithm *alg);
/* The "files" array of a KAT summary. */
json_t *hb_run_kat_files_json(const hb_kat_report *rep);

/* supercop_evidence.c: build and check a SUPERCOP implementation (every compiler setting asked
 * for), write its KAT summary and log; the result ("PASS", "FAIL", "ERROR") and the library of
 * the setting kept (*out_b, NULL when none passed). */
const char *hb_run_supercop(hb_run *r, const hb_instance *inst, hb_build_result **out_b);

/* record.c */
int hb_cmp_u64(const void *x, const void *y);
/* The "supercop" object a SUPERCOP implementation's records and KAT summary carry. */
json_t *hb_run_supercop_json(const hb_instance *inst, const hb_build_result *b);
json_t *hb_run_build_json(const hb_build_result *b, const hb_instance *inst);
/* "guide", or "guide+overrides" when algorithm.json added flags or -D defines. */
const char *hb_run_flags_label(const hb_instance *inst);
/* {defines, rewrites, define_flags} of an instance algorithm.json declares, else NULL. */
json_t *hb_run_declared_json(const hb_instance *inst);
char *hb_run_record_path(const hb_run *r, const hb_instance *inst, unsigned long long bytes);
int hb_run_record_reusable(const hb_run *r, const char *path, const hb_build_result *b);
/* Write the record of one size from its passes (passes.c entries, in the order measured), with
 * the exact memory of one call, and paired (hb_paired_record_json; NULL: none) as its headline's
 * paired ratio to the anchor; its status ("ok", "error", …), static text. */
const char *hb_run_record_write(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const char *kat_result, unsigned long long bytes, const hb_elf_sizes *sizes, json_t *entries,
	json_t *paired);

/* passes.c */
hb_driver_setup hb_run_driver(const hb_run *r);
/* Pass `pass` (0-based) of inst over sizes[0..n) on r->cpu (calls: each size's calls per block
 * from an earlier pass, or NULL to calibrate): an object with one entry per size, keyed by its
 * bytes: {pass, cpu, status, detail?, calm, reason, sentinel, involuntary_switches, steal_ms,
 * started, finished, command, calibration, trials, samples, min_cycles_per_call, …}. A size
 * that fails is found by timing each size alone, so the others keep their figures. */
json_t *hb_pass_run(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const unsigned long long *sizes, const unsigned long long *calls, size_t n, int pass);
/* Pass `pass`'s seed of the order of the sizes (which 0) or of the buffers' placement (1), drawn
 * from the campaign's; never 0. */
unsigned long long hb_pass_seed(unsigned long long campaign_seed, int pass, int which);
/* The headline of one size's entries (NULL without figures): the fastest block of all its
 * passes, with its interval (interval.c) for the precision target_pct; *state the interval's
 * ("narrow", "wide" or "unconfirmed"; static). */
int hb_pass_headline(json_t **out, const char **state, json_t *entries, unsigned long long bytes,
	double target_pct, const hb_floor *floor);

/* interval.c */
typedef struct {
	double best, low, high;     /* the headline and its bounds, cycles per call */
	double half_pct;            /* the half-width in % of the headline */
	double speed_pct;           /* the machine against its history when the figure was taken
	                             * (the sentinel's usual best so far against the history's
	                             * median), % (> 0: slower); 0 without a history */
	size_t passes, order;       /* pass minima used; the j-th fastest bounds it */
	double target_pct;
	double floor_pct;           /* the floor it was never narrower than */
	const char *floor_source;   /* "history" or "default" (static) */
	const char *state;          /* "narrow", "wide" or "unconfirmed" (static) */
} hb_interval;
/* The order j for k passes: the smallest with 1 - (1 - j/k)^k >= HB_INTERVAL_LEVEL. */
size_t hb_interval_order(size_t k);
/* The interval of one size's pass entries (passes.c: min_cycles_per_call, calm), never narrower
 * than floor (NULL: the default, HB_INTERVAL_FLOOR_PCT); -1 when no pass has a figure. */
int hb_interval_of(hb_interval *iv, json_t *entries, double target_pct, const hb_floor *floor);
json_t *hb_interval_json(const hb_interval *iv, unsigned long long bytes);

/* paired_pass.c: a campaign's paired passes, each library and the campaign's anchor taking turns
 * block by block (duet.c) */
#define HB_PAIRED_PASSES 8        /* paired passes of each library, without --paired-passes */
#define HB_PAIRED_MAX_PASSES 32
#define HB_PAIRED_WIDE_PCT 1.0    /* a paired ratio's interval wider than ± this is wide */
#define HB_PAIRED_METHOD "paired-blocks"
/* The rounds of a paired pass: half the profile's rounds, at least 3 (the passes differ more
 * from each other than the pairs within one, so more passes of fewer rounds narrow the interval
 * at the same number of pairs: docs/measurement-quality.md). */
int hb_paired_rounds(const hb_run *r);
/* Paired pass `pass` (0-based) of inst (built as b) with the anchor (built as ab) over
 * sizes[0..n): its outcome, with each size's pair ratios (library / anchor) when both ran. */
json_t *hb_paired_pass_run(hb_run *r, const hb_instance *inst, const hb_build_result *b,
	const hb_instance *anchor, const hb_build_result *ab, const unsigned long long *sizes,
	size_t n, int pass);
/* A record's headline.paired at bytes from the paired passes' outcomes (self: the anchor's own
 * record, its ratio 1); NULL when no pass has pairs of that size. */
json_t *hb_paired_record_json(const hb_run *r, json_t *passes, const hb_instance *anchor,
	unsigned long long bytes, int self);

/* sentinel.c: the sentinel's readings and the campaign's median per timing CPU. */
/* limit_pct > 0 fixes the limit (--sentinel-limit); 0 sets it from the calibration. */
int hb_sentinel_new(hb_sentinel **out, double limit_pct);
void hb_sentinel_free(hb_sentinel *s);
double hb_sentinel_limit(const hb_sentinel *s);
/* After the calibration of every timing CPU: the noise floor, and the limit when not fixed. */
void hb_sentinel_set_limit(hb_sentinel *s);
/* The tenth percentile of the readings on cpu so far, the machine at its usual best; < 0 when
 * there are none. */
double hb_sentinel_reference(const hb_sentinel *s, int cpu);
/* Time the sentinel a few times on cpu, without a library, and keep the readings. */
int hb_sentinel_calibrate(hb_sentinel *s, hb_run *r, int cpu);
/* One reading as sentinel.json has it (record: relative to the system folder, or NULL). */
json_t *hb_sentinel_reading_json(const hb_run *r, int cpu, const char *when, const char *record,
	int attempt, unsigned long long cycles, unsigned long long ns);
/* Keep readings (an array of hb_sentinel_reading_json objects) in the trace and the medians. */
void hb_sentinel_add(hb_sentinel *s, json_t *readings);
/* Add a library's records marked disturbed and measured again. */
void hb_sentinel_count(hb_sentinel *s, size_t disturbed, size_t remeasured);
/* The largest robust standard deviation of the calibration readings over the timing CPUs, in %
 * (-1 before hb_sentinel_set_limit). */
double hb_sentinel_noise_floor(const hb_sentinel *s);
/* Is before or after more than limit_pct slower than reference? Fills why and the larger
 * deviation in % (negative: faster; -1 without a reference). A pass's sentinel object keeps it
 * as deviation_pct, 0 when not slower. */
int hb_sentinel_judge(char *why, size_t n, double *out_dev, double reference,
	unsigned long long before, unsigned long long after, double limit_pct);
/* The median distance of cpu's readings from their median, in % of it: the machine's own noise
 * at the sentinel's scale; < 0 without readings. */
double hb_sentinel_noise(const hb_sentinel *s, int cpu);
/* A warning when that noise is more than half the limit: records were flagged by the host. */
void hb_sentinel_warn(const hb_sentinel *s, hb_run *r);
json_t *hb_sentinel_summary(const hb_sentinel *s);
int hb_sentinel_write(const hb_sentinel *s, const char *sysdir);

/* history.c: data/<system>/history.json, one entry per finished campaign (its times, version,
 * profile, timing CPU and counter, the sentinel's best and the yardsticks' headlines of 1 KiB and
 * more), and the interval's floor drawn from it. */
/* The campaigns of the history.json at path into *out (an empty array when there is none); an
 * error naming the file and the field when it is damaged. */
int hb_history_load(json_t **out, const char *path);
/* The floor from the campaigns of history on cpu with counter, but the one that started at
 * start (a resumed campaign): the machine's drift between them, the HB_HISTORY_QUANTILE
 * quantile of how far each yardstick figure in HB_HISTORY_MIN or more of them lay from its own
 * median, |log(cycles/byte / median)| pooled over the figures (the sentinel's best when there
 * is no such figure), within [HB_HISTORY_FLOOR_MIN_PCT, HB_HISTORY_FLOOR_MAX_PCT]; the default
 * with fewer campaigns. */
void hb_history_floor(hb_floor *out, json_t *history, int cpu, const char *counter,
	const char *start);
/* How far best lies from the median sentinel best of those campaigns, % (> 0: slower); NAN with
 * fewer than HB_HISTORY_MIN; *n the campaigns it was taken over. */
double hb_history_speed(size_t *n, json_t *history, int cpu, const char *counter,
	const char *start, double best);
/* The default floor, no history read, no speed compared (a campaign's setup). */
void hb_run_history_init(hb_run *r);
/* At the campaign's start, after the resume is known: read the history, set r->floor (a damaged
 * history.json is said in a warning and left untouched: the default floor). */
void hb_run_history_start(hb_run *r);
/* At its end (measured: records timed): compare its sentinel best with the history, say so when
 * more than the floor apart, and add it to history.json (not for a shard, nor when the file was
 * damaged). */
int hb_run_history_finish(hb_run *r, const char *end, size_t measured);
/* system.json's campaign.history. */
json_t *hb_run_history_json(const hb_run *r);

/* schedule.c: the libraries of cat this run takes (--only, --shard) into r->plan, r->total and
 * r->shard; then build, check and time them (system.json written), counting into out. */
int hb_run_plan_make(hb_run *r, const hb_catalog *cat);
void hb_run_plan_free(hb_run_plan *p);
int hb_run_schedule(hb_campaign_summary *out, hb_run *r, const hb_catalog *cat);

#endif
