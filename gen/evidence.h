/* evidence.h — the evidence layer: data/ read as untrusted input and verified against
 * SHA256SUMS (evidence_io.c, evidence_sums.c, evidence.c, evidence_algorithm.c), with the parts
 * of a record or a system that have files of their own: evidence another tool measured
 * (imported.c), exact memory (memory.c), the machine-speed trace (evidence_sentinel.c), the
 * headline figure (headline.c), the protection (protection.c), the schedule (workplan.c) and
 * what SUPERCOP evidence adds (evidence_supercop.c). Nothing here knows a page. */
#ifndef HG_EVIDENCE_H
#define HG_EVIDENCE_H

#include <stddef.h>
#include <sys/stat.h>

#include <jansson.h>

#include "genutil.h"

/* ---- the evidence (evidence.c, evidence_sums.c, evidence_algorithm.c) ---- */

struct hg_sc_impl;
struct hg_sc_primitive;

typedef struct {
	unsigned long long iterations, cycles, ns;
} hg_trial;

/* The exact memory figures of one call, from a record's "resources"; -1: not recorded
 * (evidence of an earlier hashbench, or the measurement failed: detail says why). */
typedef struct {
	long long stack_bytes, heap_peak_bytes, heap_allocations, mmap_bytes, text_bytes,
		data_bytes;
	char *detail;          /* resources.memory_detail, NULL when absent */
} hg_memory;

/* A record's "sentinel": the machine-speed workload timed before and after it. */
typedef struct {
	int present;           /* 0: the record has none (earlier evidence) */
	long long before, after; /* cycles */
	double reference, deviation_pct, limit_pct;
} hg_rec_sentinel;

/* The state of a headline's interval: none (evidence of an earlier hashbench), narrow, wide (its
 * half-width above the precision the campaign asked for) or unconfirmed (no calm pass within it). */
typedef enum { HG_IV_NONE, HG_IV_NARROW, HG_IV_WIDE, HG_IV_UNCONFIRMED } hg_iv_state;

/* A headline's "interval": the headline ± a half-width from the spread of the pass minima. */
typedef struct {
	hg_iv_state state;     /* HG_IV_NONE: the record has none; the rest is then unset */
	char *method;          /* "bootstrap-min-of-passes" */
	double level;          /* 0.95 */
	long long passes, order; /* the pass minima it was computed from, the j-th fastest bounding it */
	double floor_pct, half_width_pct, target_pct; /* in % of the headline */
	double low_cycles_per_call, high_cycles_per_call, low_cycles_per_byte, high_cycles_per_byte;
} hg_interval;

/* A record's "headline.paired": its ratio to the campaign's anchor library at its message size,
 * the two timed side by side on one CPU, their drivers taking turns block by block: the median of
 * the pairs' ratios with its 95 % bootstrap interval. present 0: the record has none (evidence of
 * an earlier hashbench, a shard without the anchor, a library whose paired passes failed). */
typedef struct {
	int present;
	int self;              /* the anchor's own record: ratio, low and high 1, no pairs */
	char *anchor_instance, *anchor_implementation;
	long long campaign_seed; /* the campaign's: ratios of one campaign to one anchor compare */
	double ratio, low, high;
	hg_iv_state state;     /* HG_IV_NARROW, or HG_IV_WIDE: half-width above the noise threshold */
} hg_rec_paired;

/* A record's "headline": the figure the comparisons use, from an estimator that repeats on a
 * noisy host (headline.c). present 0: evidence of an earlier hashbench, whose headline is the
 * guide's mean (estimator "mean"). */
typedef struct {
	int present;
	char *estimator;       /* "min-of-pass-minima" */
	double cycles_per_call, cycles_per_byte;
	size_t calm_passes;    /* headline.passes: the calm passes the median is taken over */
	size_t passes;         /* the record's passes[], calm or not (0: not recorded) */
	hg_interval interval;  /* headline.interval (state HG_IV_NONE when absent) */
	hg_rec_paired paired;  /* headline.paired (present 0 when absent) */
} hg_headline;

typedef struct {
	char *file;            /* relative to the system folder */
	char *instance, *implementation, *operation, *status, *detail, *kat, *flags;
	unsigned long long message_bytes;
	long long output_bytes;  /* the digest's length; -1: not recorded */
	hg_trial *trials;
	size_t ntrials;
	long long static_bytes, baseline_rss_kib, peak_rss_kib; /* -1: not recorded */
	hg_memory memory;      /* the exact figures of one call (memory.c) */
	hg_rec_sentinel sentinel; /* the machine's speed around the record (memory.c) */
	hg_headline headline;  /* the estimator's figure (headline.c) */
	double cycles_per_tick; /* its system's conversion of the counter's ticks (hg_system); 0:
	                        * none, the figures are as read */
	unsigned long long *samples; /* single-call cycles, NULL when the record has none */
	size_t nsamples;
	int disturbed;         /* the headline was not confirmed by a second pass (earlier
	                        * evidence: a round was far from the others after the retries) */
	size_t nretries;       /* attempts discarded as disturbed */
	char *original;        /* imported: the original it was converted from (NULL: measured) */
	char original_sha256[65];
	/* a SUPERCOP implementation: supercop.path ("crypto_hash/sha256/ref") and the compiler
	 * setting it was built with (supercop.compiler, else build.cflags); NULL: not SUPERCOP */
	char *sc_path, *sc_compiler;
} hg_record;

typedef struct {
	char *file;            /* the summary, relative to the system folder */
	char *instance, *implementation, *build_flags, *result, *detail;
	int byte_aligned;      /* the check covered the byte-aligned entries only */
	char *import_note;     /* imported: how the other tool checked it (NULL: none) */
	struct hg_sc_impl *supercop; /* SUPERCOP's checksums and settings; NULL: not SUPERCOP */
} hg_kat;

typedef enum { HG_SUM_OK, HG_SUM_MISMATCH, HG_SUM_UNLISTED, HG_SUM_MISSING } hg_sum_state;

typedef struct {
	char *file;            /* relative to the system folder */
	char sha256[65];       /* of the file as read ("" when missing) */
	char listed[65];       /* in SHA256SUMS ("" when unlisted) */
	hg_sum_state state;
	unsigned long long ino, size; /* as read (for the rebuild cache) */
	long long mtime_ns;
} hg_evfile;

typedef struct {
	char *label, *href;    /* href NULL when absent */
} hg_link;

typedef struct {
	char *id, *name, *category, *function;
	char **parameter_sets; /* NULL-terminated */
	hg_link security, submission;
	char sha256[65];       /* of the catalog file */
	struct hg_sc_primitive *supercop; /* a SUPERCOP primitive; NULL: an NGCC algorithm */
} hg_entry;

/* One line of SHA256SUMS. */
typedef struct {
	char *path;
	char sha256[65];       /* inline: one allocation less per line */
} hg_sum;

/* A system's SHA256SUMS as hashgen keeps it (evidence_sums.c): the system's own lines, and for
 * each algorithm's folder where its lines lie in the file, read back when its page is built. */
struct hg_sumindex;

typedef struct {
	char *name, *dir;      /* "x86_1", "data/x86_1" */
	char *arch, *processor, *machine, *governor, *boost_name, *boost_state, *smt;
	char *os, *kernel, *compiler, *build_tool, *counter, *start, *end, *profile, *hashbench;
	int cpu;
	long long min_khz, max_khz, memory_mib, counter_hz, rounds, round_ms, max_calls;
	int virtual_machine;   /* -1 unknown */
	/* the counter (evidence_counter.c): counter.counts_core_cycles (-1: not recorded, evidence
	 * of an earlier version), counter.core_hz (the declared core clock; -1: none), the unit of
	 * the figures ("cycles" or "ticks", static) and core_hz / counter_hz when a declared core
	 * clock converts the ticks to cycles (0: none) */
	int counts_core_cycles;
	long long core_hz;
	const char *unit;
	double cycles_per_tick;
	long long counter_read_cycles; /* -1 unknown */
	double empty_call_cycles;      /* < 0 unknown */
	int overhead_subtracted;       /* -1 unknown */
	double spread_limit_pct;       /* figures with a larger spread are flagged */
	char *estimator;       /* campaign.estimator; NULL: earlier evidence (the mean) */
	long long passes;      /* campaign.passes; -1: not recorded */
	/* campaign.paired: the paired passes' anchor ("SM3 (reference)"), passes and rounds;
	 * paired_passes 0: none (null), -1: not recorded (evidence of an earlier version) */
	char *paired_anchor;
	long long paired_passes, paired_rounds;
	double paired_wide_pct;
	int paired_interleaved; /* campaign.paired.schedule "interleaved"; 0: after the passes */
	double precision_pct;  /* campaign.precision_pct (--precision); 0: not asked (the default
	                        * applies), -1: not recorded (earlier evidence) */
	/* campaign.history (headline.c): the interval's floor and how it was set. floor_source
	 * NULL: not recorded (evidence of an earlier version, whose floor was 0.4 %) */
	char *floor_source;    /* "history" or "default" */
	double floor_pct;
	long long history_campaigns, history_figures; /* what the floor was drawn from */
	double drift_pct, speed_vs_history_pct;       /* NAN when null */
	char **warnings;       /* NULL-terminated */
	char *sandbox;         /* what protected the machine: the method page's paragraph */
	int sandbox_off;       /* 1: measured with --no-sandbox, 0: sandboxed, -1: not recorded */
	char *schedule;        /* how the campaign was scheduled: the method page's sentences */
	struct hg_sumindex *sums; /* SHA256SUMS (hg_sums_load); NULL: there is none */
	char **algorithms;     /* ids with evidence on this system, sorted, NULL-terminated */
	size_t nalgorithms;
	char system_sha256[65];
	struct hg_sentinel *sentinel; /* sentinel.json and campaign.sentinel; NULL: not traced */
	struct hg_import *imported; /* measured by another tool and imported; NULL: by hashbench */
} hg_system;

/* ---- the counter and the unit of the figures (evidence_counter.c) ---- */

/* system.json's "counter" object into s: name, hz, counts_core_cycles, core_hz and unit, checked
 * against each other; file names system.json in messages. */
int hg_counter_load(hg_system *s, json_t *counter, const char *file);
/* s's warnings as read, but the one campaigns of earlier versions wrote of every counter other
 * than perf-cycles ("cycles are counted by the time-stamp counter") said of the counter s
 * names when that is not the time-stamp counter (cntvct: its figures are ticks). */
void hg_counter_warnings(hg_system *s);
/* The unit of s's figures, the one name every label of its pages takes: "cycles" (the counter
 * counts the core's cycles, or a declared core clock converts its ticks), else "ticks". */
const char *hg_unit_name(const hg_system *s);
/* text (malloc'd, taken) with the whole words "cycles" and "Cycles" named by s's unit; returned
 * malloc'd, text itself when the unit is cycles. */
char *hg_unit_words(const hg_system *s, char *text);

/* ---- evidence measured by another tool and imported (imported.c) ---- */

/* Where the originals of the converted records lie: imported/records/<id>/<file>. */
#define HG_ORIGINALS "imported/records"

typedef struct hg_import {
	char *tool, *version, *commit; /* "ngcc-harness"; version and commit NULL when unknown */
	char *imported_by;     /* "hashbench 0.1.0 (git abc1234)" */
	char *source;          /* the folder it was imported from */
	char *method;          /* the tool's own method page (method.md), NULL when missing */
	hg_evfile *files;      /* the system's originals: method.md and imported/ (records aside) */
	size_t nfiles;
} hg_import;

/* system.json's "measured_by" (NULL or absent: measured by hashbench) into s->imported, with
 * the tool's method page and the system's originals checked against SHA256SUMS; file names
 * system.json in messages. */
int hg_import_load(hg_system *s, json_t *measured_by, const char *file);
void hg_import_free(hg_import *im);
/* A record's or a KAT summary's "imported" object (absent: nothing to do). */
int hg_import_record(hg_record *r, json_t *rec, const char *file);
int hg_import_kat(hg_kat *k, json_t *kat, const char *file);
/* The folders of an algorithm's evidence on s, each followed by /<id>/: "kat", "records" and,
 * on an imported system, HG_ORIGINALS; returns how many (2 or 3). */
size_t hg_evidence_kinds(const hg_system *s, const char *out[3]);

/* ---- SUPERCOP's crypto_hash evidence (evidence_supercop.c); every field optional to evidence
 * of other corpora ---- */

/* One file of a KAT summary: SUPERCOP's checksumsmall and checksumbig. */
typedef struct {
	char *name, *sha256, *expected, *result, *detail; /* sha256, expected, detail may be NULL */
	long long entries;     /* -1: not recorded */
} hg_katfile;

/* One compiler setting tried on an implementation (the KAT summary's supercop.compilers[]). */
typedef struct {
	char *compiler, *result, *detail, *checksumsmall, *checksumbig; /* NULL: none */
	long long cycles;      /* try's median at 1536 B; -1: none */
	double turns_ratio, turns_low, turns_high; /* "in_turns": its try's median over the fastest
	                                            * by one median, timed in turns; -1: none */
	int within_noise;      /* in_turns.within_noise_of_kept */
} hg_sc_setting;

/* A KAT summary's "supercop" object with its "files". */
typedef struct hg_sc_impl {
	char *version, *operation, *primitive, *path, *implementors, *sources_sha256;
	char *compiler;        /* the setting chosen; NULL: none passed */
	hg_sc_setting *settings;
	size_t nsettings;
	hg_katfile *files;
	size_t nfiles;
} hg_sc_impl;

/* An implementation the campaign did not run here, and why. */
typedef struct {
	char *implementation, *path, *reason;
} hg_sc_notrun;

/* A catalog entry's "supercop" object. */
typedef struct hg_sc_primitive {
	char *version, *operation, *primitive, *designers, *description;
	hg_sc_notrun *not_run;
	size_t nnot_run;
} hg_sc_primitive;

/* The "supercop" object of a catalog entry j (absent: e->supercop stays NULL). */
int hg_sc_entry_read(hg_entry *e, json_t *j, const char *file);
void hg_sc_primitive_free(hg_sc_primitive *p);
/* The "supercop" object of a KAT summary j with its "files" (absent: nothing). */
int hg_sc_kat_read(hg_kat *k, json_t *j, const char *file);
void hg_sc_impl_free(hg_sc_impl *m);
/* A record's "supercop" path and compiler (from it or build.cflags); absent: nothing. */
int hg_sc_record_read(hg_record *r, json_t *j, const char *file);

/* ---- exact memory and the machine's speed (memory.c, evidence_sentinel.c) ---- */

/* The optional memory fields of a record's "resources" object res and its "sentinel" object
 * (record j) into r; file names the record in messages. */
int hg_memory_read(hg_record *r, json_t *res, json_t *j, const char *file);
void hg_memory_clear(hg_record *r);

/* One reading of the sentinel workload (sentinel.json's readings[]). */
typedef struct {
	char *time, *record, *when; /* record NULL: a calibration reading */
	double t_s;
	long long cpu, attempt, cycles, ns;
} hg_reading;

typedef struct hg_sentinel {
	int traced;            /* sentinel.json is there */
	char *workload;
	double limit_pct;
	hg_reading *readings;
	size_t nreadings;
	hg_evfile file;        /* sentinel.json, checked against SHA256SUMS (file NULL: absent) */
	/* system.json's campaign.sentinel; -1: not recorded */
	long long readings_count, disturbed_records, remeasured_records;
	/* how the limit was set (campaign.sentinel, else sentinel.json); < 0 / NULL: not recorded */
	double noise_floor_pct, limit_floor_pct, campaign_limit_pct;
	char *limit_source;    /* "calibrated" or "--sentinel-limit" */
} hg_sentinel;

/* Read s->dir/sentinel.json when present and system.json's campaign.sentinel (may be NULL)
 * into s->sentinel (left NULL when neither is there); sysfile names system.json in messages.
 * Call after SHA256SUMS is loaded. */
int hg_sentinel_load(hg_system *s, json_t *campaign_sentinel, const char *sysfile);
/* Parse a sentinel.json text; file names it in messages. The fuzz harness calls it directly. */
int hg_sentinel_parse(hg_sentinel *out, const char *text, size_t len, const char *file);
void hg_sentinel_free(hg_sentinel *t);

/* ---- the headline figure (headline.c) ---- */

/* A record's "headline" with its "interval", "paired" and "passes" (absent or null: earlier
 * evidence) into r->headline; file names the record in messages. */
int hg_headline_read(hg_record *r, json_t *j, const char *file);
void hg_headline_clear(hg_record *r);
/* "narrow", "wide", "unconfirmed"; NULL for HG_IV_NONE. */
const char *hg_iv_name(hg_iv_state state);
/* system.json's campaign.estimator, campaign.passes, campaign.precision_pct and campaign.history
 * into s (absent: earlier evidence). */
int hg_headline_campaign(hg_system *s, json_t *campaign, const char *file);

/* The paragraph on what protected the machine, from system.json's "sandbox" (may be NULL:
 * evidence of an earlier version); *off as hg_system's sandbox_off (protection.c). */
char *hg_sandbox_describe(json_t *sandbox, int *off);
/* How the campaign was scheduled (overlap, timing CPUs, shards), from system.json (workplan.c). */
char *hg_schedule_describe(json_t *sys);

/* Everything of one algorithm on one system, loaded for its page. */
typedef struct {
	hg_record *records;
	size_t nrecords;
	hg_kat *kats;
	size_t nkats;
	hg_evfile *files;      /* every evidence file of the algorithm, sorted by path */
	size_t nfiles;
	char *manifest;        /* kat/<id>/kat.sha256 when present */
	hg_sum *sums;          /* SHA256SUMS's lines of its folders, sorted by path (hg_sums_of) */
	size_t nsums;
	int dir_fd[3];         /* kat/<id>, records/<id> and HG_ORIGINALS/<id>, open until
	                        * hg_sysalg_clear (-1: none) */
} hg_sysalg;

typedef struct {
	char *data_dir;
	char *root_real;       /* data_dir with symbolic links resolved */
	hg_entry *entries;     /* the catalog, sorted by id */
	size_t nentries;
	hg_system *systems;    /* sorted by name */
	size_t nsystems;
} hg_data;

/* The KAT results of an algorithm's libraries, counted: passed, unverified (nothing to compare
 * with), failed or did not build (FAIL, ERROR); SKIPPED is not counted. */
enum { HG_KAT_PASSED, HG_KAT_UNVERIFIED, HG_KAT_FAILED, HG_KAT_TALLY };
/* Add the results of kats[0..n) to out. */
void hg_kat_tally(long long out[HG_KAT_TALLY], const hg_kat *kats, size_t n);

int hg_data_load(hg_data **out, const char *data_dir);
void hg_data_free(hg_data *d);
const hg_entry *hg_data_entry(const hg_data *d, const char *id);
int hg_system_has(const hg_system *s, const char *id);
int hg_sysalg_load(hg_sysalg *out, const hg_data *d, const hg_system *s, const char *id);
void hg_sysalg_clear(hg_sysalg *sa);
/* Set f's SHA256SUMS line and state from its path and SHA-256, against the lines v (sorted by
 * path) that hold it: an algorithm's (hg_sums_of), or the system's own (hg_sums_system). */
void hg_evfile_check(hg_evfile *f, const hg_sum *v, size_t n);
/* Append the files of the algorithm that v, its SHA256SUMS lines (hg_sums_of), lists and that
 * are not among *files (state HG_SUM_MISSING), then sort *files by path. */
void hg_evidence_missing(hg_evfile **files, size_t *n, const hg_system *s, const char *id,
	const hg_sum *v, size_t nv);
/* Free what the loading thread keeps between calls (its read buffer). */
void hg_evidence_release(void);

/* ---- SHA256SUMS (evidence_sums.c; hg_sums_of in evidence_algorithm.c) ---- */

/* A path inside a system folder as SHA256SUMS or a walk gives it: relative, without "." or ".."
 * or empty components. */
int hg_sums_path_ok(const char *p);
/* SHA256SUMS read from fd, which it takes (kept open to read lines back), into s->sums: every
 * line checked; the system's own lines kept, sorted by path; of the lines under kat/<id>/,
 * records/<id>/ and HG_ORIGINALS/<id>/ only where they lie. path names the file in messages.
 * A file that cannot be read is no SHA256SUMS (0, s->sums left NULL: every file unlisted).
 * hg_data_load reads each system's with it; the fuzz harness calls it directly. */
int hg_sums_load(hg_system *s, int fd, const char *path);
void hg_sumindex_free(struct hg_sumindex *x);
/* The lines whose path starts with prefix, sorted by path (the lines of one path in their order
 * in the file), those in an algorithm's folder read back from the file: any number of threads
 * at once. Fails, naming the file, when SHA256SUMS changed since it was loaded. *out is the
 * caller's, freed with hg_sums_free. */
int hg_sums_under(hg_sum **out, size_t *n, const hg_system *s, const char *prefix);
/* The lines of every evidence folder of algorithm id (hg_evidence_kinds), sorted by path. */
int hg_sums_of(hg_sum **out, size_t *n, const hg_system *s, const char *id);
void hg_sums_free(hg_sum *v, size_t n);
/* The system's own lines (outside the algorithms' folders), sorted by path; borrowed from s. */
const hg_sum *hg_sums_system(const hg_system *s, size_t *n);
/* Among v, sorted by path: the SHA-256 of rel (NULL: unlisted); the first index whose path is
 * >= key. */
const char *hg_sums_find(const hg_sum *v, size_t n, const char *rel);
size_t hg_sums_lower(const hg_sum *v, size_t n, const char *key);
/* Sort v by path, the lines of one path keeping their order. */
void hg_sums_sort(hg_sum *v, size_t n);
/* The SHA-256 SHA256SUMS lists for any path into out ("" when unlisted); an algorithm's file's
 * is read back (hg_sums_under; prefer hg_sums_of for many files). */
int hg_system_sum(char out[65], const hg_system *s, const char *rel);

/* ---- the reading primitives (evidence_io.c); file names the file in messages ---- */

/* "<file>: <path>: <what>"; returns -1. */
int hg_ev_bad(const char *file, const char *path, const char *what);
/* A string field: required (NULL is an error), or optional (absent or null give NULL). */
int hg_ev_str(char **out, const char *file, json_t *obj, const char *prefix, const char *key,
	int required);
/* An integer field of 0 or more; optional ones may be absent or null (-1). */
int hg_ev_int(long long *out, const char *file, json_t *obj, const char *prefix,
	const char *key, int required);
/* The root object's "schema" is want. */
int hg_ev_schema(const char *file, json_t *root, const char *want);
/* NULL with the error (file:line:column) stored when text is not JSON. */
json_t *hg_ev_parse(const char *file, const char *text, size_t len);
/* Entries of dir (names), sorted; kind 'd' folders, 'f' files; symbolic links must stay in
 * root_real (else an error). A missing folder is an empty list. */
int hg_ev_list(char ***out, size_t *n, const char *dir, char kind, const char *root_real);
/* An evidence file's path in its system's folder ("records/<id>/<name>") and its stat. */
typedef struct {
	char *rel;
	struct stat st;
} hg_scanned;
/* The evidence files of algorithm id on s with their stat, without reading them, sorted by
 * path within each kind; 1 when something other than a regular file is there (the full load
 * then decides). */
int hg_ev_scan(hg_scanned **out, size_t *n, const hg_system *s, const char *id);
void hg_ev_scan_free(hg_scanned *sc, size_t n);
/* Read a file of a folder into a buffer of the calling thread (valid until its next call,
 * freed by hg_evidence_release); st gets its stat when not NULL. */
int hg_ev_read_at(char **out, size_t *len, int dfd, const char *name, const char *shown,
	struct stat *st);
/* Is href acceptable in a page: an http(s) URL, or a relative path that stays in the site? */
int hg_href_ok(const char *href);

#endif
