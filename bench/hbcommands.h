/* hbcommands.h — the commands main.c dispatches to, over the library: list (listing.c), digest
 * (digest.c), kat-check and kat-gen (katjobs.c), compare (compare_cmd.c), merge (merge.c,
 * merge_input.c, merge_sentinel.c) and import ngcc-harness (import.c, import_record.c,
 * import_system.c); run and env are the campaign's (hbcampaign.h). */
#ifndef HB_COMMANDS_H
#define HB_COMMANDS_H

#include <stdio.h>

#include <jansson.h>

#include "hbpackage.h"

/* The help text of hashbench --help (usage.c). */
extern const char hb_usage[];

/* ---- list (listing.c) and digest (digest.c) ---- */

/* Every algorithm of cat, its instances and implementations with their sources, declared changes
 * and KAT files, on stdout. */
void hb_list_print(const hb_catalog *cat);
/* Hash file ("-": standard input) with inst's library in a sandboxed child and print
 * "<hex digest>  <file>" on stdout; bits >= 0 hashes only the file's first bits, length > 0 asks
 * for a length-bit output (XOF). 0, or 1 with what went wrong on stderr. */
int hb_digest_print(const hb_instance *inst, const char *library, const char *file,
	long long bits, long length);

/* ---- kat-check and kat-gen (katjobs.c) ---- */

/* Many libraries' KATs in parallel worker processes (katjobs.c), printed in the order given. */
typedef struct {
	const char *profiles, *work;
	const char *out_dir;     /* kat-gen: where the files go */
	unsigned sets;           /* mask; 0: all the submission has (check), all four (generate) */
	unsigned time_limit_s;
	unsigned jobs;           /* processes; 0: one per CPU */
	const char *compilers;   /* SUPERCOP: the settings to try, or NULL: the tree's first */
} hb_katjobs_opts;

/* Check each library (build, regenerate, compare), its lines on stdout; *out_failed counts
 * those that did not pass, *out_unverified those run without checksums to compare with. */
int hb_katjobs_check(size_t *out_failed, size_t *out_unverified, const hb_instance *const *insts,
	size_t n, const hb_katjobs_opts *o);
/* Write KAT_<set>_<instance>.txt of each set for each instance into out_dir, a "sha256  path"
 * line each on stdout; *out_failed counts the files that could not be made. */
int hb_katjobs_generate(size_t *out_failed, const hb_instance *const *insts, size_t n,
	const hb_katjobs_opts *o);

/* ---- compare (compare_cmd.c) ---- */

#define HB_COMPARE_MAX_PASSES 50

typedef struct {
	const char *spec[2];           /* A and B: INSTANCE[:IMPL] */
	const char *submissions[2];    /* the folder each is found in */
	const char *supercop;          /* a SUPERCOP tree both may come from, or NULL */
	const char *profiles, *work;   /* the build profiles (NULL: bundled) and build folder */
	const char *measure_exe;       /* the hashbench-measure driver */
	const char *sizes;             /* comma-separated, or NULL for the guide's */
	int cpu;                       /* the CPU both drivers share; -1: the last this process may use */
	unsigned passes, rounds;       /* 0: 6 passes of 20 rounds */
	double noise_pct;              /* the verdict's threshold; 0: 1 % */
	unsigned time_limit_s;         /* per driver; 0: 120 s */
	const char *json_out;          /* the evidence, or NULL */
	FILE *progress;                /* a line a pass; NULL: none */
} hb_compare_opts;

/* Find and build A and B, time them side by side and print, at each size, both figures, the
 * ratio A/B with its 95 % interval and the verdict on stdout; *out_slower is 1 when A is slower
 * than B at any size. 0, or negative with one message (naming the side) when they could not be
 * built or measured. */
int hb_compare_run(int *out_slower, const hb_compare_opts *o);

/* ---- merge (merge.c) ---- */

typedef struct {
	const char *out_data;     /* the data folder that gets OUT/<system> and OUT/algorithms */
	char *const *inputs;      /* <system> folders of shards; their catalog is ../algorithms */
	size_t ninputs;
	int allow_missing;        /* merge even when units are missing (then listed as warnings) */
	FILE *progress;           /* where missing units are listed, one a line; NULL: nowhere */
} hb_merge_opts;

typedef struct {
	size_t inputs, files, catalog; /* joined folders, evidence files and catalog entries written */
	size_t missing;                /* units no shard measured */
	char system[65];
} hb_merge_summary;

/* Join the evidence folders of the shards of one campaign (docs/shards.md): 0 when OUT/<system>
 * was written; negative, with one line naming the inputs and the file or field, when they
 * cannot be joined, units are missing without allow_missing, or writing failed. Nothing under
 * OUT is changed unless it returns 0. */
int hb_merge(hb_merge_summary *out, const hb_merge_opts *o);
/* merge_sentinel.c: the shards' sentinel.json joined into outdir (nothing when none has one),
 * and campaign.sentinel of the merged system.json (NULL when no input has one). */
int hb_merge_sentinel(const char *const *dirs, size_t n, const char *outdir);
json_t *hb_merge_sentinel_summary(json_t *const *systems, size_t n);

/* ---- import (import.c) ---- */

typedef struct {
	const char *dir;          /* the harness's performance/data/<system> folder, as given */
	const char *system;       /* NAME: the evidence goes to data_dir/NAME */
	const char *data_dir;     /* data/ */
	const char *catalog;      /* folder with algorithms/<id>.json entries, or NULL */
	const char *method;       /* the method page, or NULL: DIR/../../method_<basename DIR>.md */
	const char *only;         /* comma-separated algorithm ids, or NULL for all */
	FILE *progress;           /* where skipped and refused files are listed; NULL: nowhere */
} hb_import_opts;

typedef struct {
	size_t records, kat_logs;  /* converted */
	size_t skipped;            /* records and logs of other categories or operations */
	size_t refused;            /* unusable files, symbolic links, paths out of DIR: listed */
	size_t catalog_written, catalog_kept;
	int method;                /* whether the harness's method page was found and copied */
} hb_import_summary;

/* Convert the earlier harness's evidence (docs/import.md):
 * 0 when data_dir/NAME was written, with what was skipped or refused counted in out (each listed
 * on progress, one line a file); negative, with one message, when nothing could be imported.
 * data_dir/NAME is replaced whole only on success and only when it is absent, empty or an
 * earlier import; catalog entries already in data_dir/algorithms are kept. */
int hb_import_ngcc_harness(hb_import_summary *out, const hb_import_opts *o);

#endif
