/* hashbench.h — the benchmark library behind the `hashbench` program: NGCC submission
 * discovery, building, loading, the ICCS DRNG and KAT procedure. */
#ifndef HASHBENCH_H
#define HASHBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hbutil.h"

/* ---- the ICCS deterministic random generator (drng.c): SM3 Hash_DRBG, seedlen 440 ---- */

#define HB_DRNG_SEEDLEN 55

typedef struct {
	unsigned char v[HB_DRNG_SEEDLEN];
	unsigned char c[HB_DRNG_SEEDLEN];
	unsigned char reseed_counter[HB_DRNG_SEEDLEN];
} hb_drng;

int hb_drng_init(hb_drng *drng, const unsigned char *seed, size_t seed_len);
/* Fill ceil(bits/8) bytes of out; unused low-order bits of the last byte are cleared. */
int hb_drng_generate(hb_drng *drng, unsigned char *out, uint64_t bits);

/* ---- submissions (submission.c) ---- */

typedef enum { HB_KAT_2_12, HB_KAT_2_23, HB_KAT_2_33, HB_KAT_LOOP, HB_KAT_NSETS } hb_kat_set;

typedef struct hb_instance {
	char *name;            /* ALGORITHM_INSTANCE */
	char *impl;            /* reference, optimized, … */
	char *version_folder;  /* Reference_Implementation, … */
	int digest_bits;       /* DIGEST_BIT_LENGTH */
	char *dir;             /* instance folder */
	char *header;          /* the header that defines ALGORITHM_INSTANCE (NULL for a declared
	                        * instance whose folder has none) */
	char **sources;        /* absolute paths, NULL-terminated */
	char **include_dirs;   /* NULL-terminated */
	char **extra_cflags;   /* from algorithm.json, NULL-terminated */
	char **ldflags;        /* from algorithm.json, after the sources; NULL-terminated */
	/* An instance algorithm.json declares ("instances") sets #define values: rewritten in a
	 * private copy of its folder's headers where a header defines them, else -D flags. The
	 * three lists are empty for discovered instances and NULL in one not from a catalog. */
	char **defines;        /* NAME=VALUE as declared; NULL-terminated */
	char **rewrites;       /* one line per rewritten #define, for logs and records:
	                        * "CryptHash_X.h: #define DIGEST_BIT_LENGTH 2048 -> 256" */
	char **define_flags;   /* "-DNAME=VALUE", in the build command after the -I flags */
	int kat_byte_aligned;  /* the library hashes whole bytes only: KAT on those entries */
	char *profile;         /* build profile name (default: impl) */
	char *kat_files[HB_KAT_NSETS];      /* submitted KAT file or NULL */
	char *kat_manifest[HB_KAT_NSETS];   /* sha256 hex from a kat.sha256, or NULL */
	char *kat_manifest_file[HB_KAT_NSETS];
	struct hb_algorithm *algorithm;     /* borrowed back-pointer */
} hb_instance;

typedef struct hb_algorithm {
	char *id;
	char *name;
	char *dir;        /* folder holding algorithm.json */
	char *json_path;
	char *json_text;  /* algorithm.json as read, for the catalog copy */
	hb_instance *instances;
	size_t ninstances;
} hb_algorithm;

typedef struct {
	hb_algorithm *algorithms;
	size_t nalgorithms;
	char **warnings; /* discovery problems that did not stop it, NULL-terminated */
} hb_catalog;

/* Load every algorithm under dir (dir itself or its sub-folders holding algorithm.json). */
int hb_catalog_load(hb_catalog **out, const char *dir);
void hb_catalog_free(hb_catalog *cat);
/* Find "INSTANCE[:IMPL]" (IMPL defaults to reference). Borrowed pointer. */
int hb_catalog_find(const hb_instance **out, const hb_catalog *cat, const char *spec);
/* "SM3" for reference, "SM3.optimized" otherwise. Caller frees. */
char *hb_instance_stem(const hb_instance *inst);
const char *hb_kat_set_name(hb_kat_set set); /* "2_12", …, "Loop" */
/* Parse "2_12,2_23,loop" into a mask of (1 << set). */
int hb_kat_sets_parse(unsigned *out_mask, const char *list);

/* C sources as code (csource.c): a copy with comments, string and character literals blanked
 * (caller frees; NULL when out of memory), and whether such code defines main. */
char *hb_code_only(const char *src, size_t len);
int hb_defines_main(const char *code);

/* The readers behind hb_catalog_load, from memory (the fuzz harnesses call them too). A C header
 * (text NUL-terminated at text_len): 1 with the ALGORITHM_INSTANCE name (caller frees) and
 * DIGEST_BIT_LENGTH when it defines the instance, 0 when not, <0 when malformed (path names it
 * in the message). */
int hb_header_scan(char **out_name, int *out_digest_bits, const char *text, size_t text_len,
	const char *path);
/* The sha256 hex that a kat.sha256 text (sha256sum format) lists for the file named want, or
 * NULL; text is cut into lines in place. Caller frees. */
char *hb_kat_manifest_find(char *text, const char *want);

/* Which folders of a package count (layout.c): has_impl says whether any of files (paths below
 * dir) lies under an "Implementations" folder; then a header counts when it does too, or lies
 * below a folder algorithm.json's "include" array names (relative to dir). When not, *why is the
 * one line to show (caller frees). */
struct json_t;
int hb_layout_has_implementations(const char *dir, char *const *files);
int hb_layout_counts(const char *dir, const char *path, const struct json_t *include, int has_impl,
	char **why);

/* ---- building (build.c) ---- */

typedef struct {
	char *library;   /* path of the shared library */
	char *profile;   /* profile name */
	char *cc;        /* compiler */
	char *cflags;    /* the exact flags, as one string */
	char *command;   /* the whole compile command, shell-quoted */
	char *log;       /* compiler output (warnings), possibly empty */
	char library_sha256[65];
} hb_build_result;

/* Profiles file for this machine's architecture; NULL path = the bundled bench/profiles.conf. */
int hb_build(hb_build_result **out, const hb_instance *inst, const char *profiles_path,
	const char *work_dir);
void hb_build_result_free(hb_build_result *res);
const char *hb_arch(void); /* x86_64, aarch64, … */
/* The compiler named by this architecture's profiles (caller frees), NULL when none is. */
char *hb_profiles_cc(const char *profiles_path);
/* What a profiles text gives an implementation on arch, from memory (hb_build reads the file and
 * calls this; so does the fuzz harness): the compiler, the profile chosen for wanted (its own
 * name, the part before a '-', then fallback) and its flags with pic appended. Caller frees. */
int hb_profiles_resolve(char **out_cc, char **out_profile, char **out_cflags, const char *text,
	const char *path, const char *arch, const char *wanted);

/* ---- loading and calling an implementation (impl.c) ---- */

typedef int (*hb_crypthash_fn)(int, const unsigned char *, unsigned long long, unsigned char *);
typedef struct hb_impl hb_impl;

int hb_impl_open(hb_impl **out, const char *library);
void hb_impl_close(hb_impl *impl);
/* Call CryptHash with guard bytes around the output; fails on a non-zero return or
 * on a write past the ceil(digest_bits/8) bytes. out must hold that many bytes. */
int hb_impl_hash(const hb_impl *impl, int digest_bits, const unsigned char *msg,
	unsigned long long msg_bits, unsigned char *out);

/* Children that run submission code: sandbox.h. */

/* ---- the ICCS KAT procedure (kat.c) ---- */

typedef struct {
	char *name;      /* KAT_2_12_<inst>.txt */
	char sha256[65]; /* of the regenerated file */
	char expected_sha256[65];
	size_t entries;
	const char *result; /* PASS, FAIL, MISSING, SKIPPED */
	char *detail;    /* first difference, or which manifest form matched */
} hb_kat_file_result;

typedef struct {
	hb_kat_file_result files[HB_KAT_NSETS];
	unsigned mask;   /* which sets were checked */
	const char *result; /* PASS, FAIL, ERROR */
	char *detail;
} hb_kat_report;

/* Write KAT_<set>_<inst>.txt to path using CryptHash of impl; byte_aligned leaves out the
 * entries whose message is not a whole number of bytes (the generator still draws them). */
int hb_kat_generate(const hb_impl *impl, const char *instance, int digest_bits,
	hb_kat_set set, const char *path, int byte_aligned);
/* The same in a sandboxed child with a time limit (0: generous defaults per set), loading
 * the library there: a crash, hang or forbidden system call of the library becomes an error.
 * What the library printed goes to log (when not NULL). */
int hb_kat_generate_file(const hb_instance *inst, const char *library, hb_kat_set set,
	const char *path, unsigned time_limit_s, FILE *log);
/* Compare two KAT texts entry by entry; 0 when equal, else HB_ERROR with the first
 * difference as the message ("Msg_Len = 9: Dst differs: expected …, got …"). */
int hb_kat_compare(const char *expected, size_t expected_len, const char *got, size_t got_len,
	size_t *out_entries);
/* sha256 of the normalised form (CR and trailing blanks removed, empty lines dropped). */
void hb_kat_normalised_sha256(char out_hex[65], const char *text, size_t len);
/* Keep only the entries of a submitted KAT text whose Msg_Len is a whole number of bytes. */
int hb_kat_keep_byte_aligned(hb_buf *text);
/* Regenerate (in a sandboxed child, into work_dir) and check the sets in mask that the
 * submission has files or manifest lines for (mask 0 = all it has). time_limit_s bounds each
 * generation (0: generous defaults per set). */
int hb_kat_check(hb_kat_report *out, const hb_instance *inst, const char *library,
	unsigned mask, const char *work_dir, unsigned time_limit_s, FILE *log);
void hb_kat_report_clear(hb_kat_report *rep);

/* Many libraries' KATs in parallel worker processes (katjobs.c), printed in the order given. */
typedef struct {
	const char *profiles, *work;
	const char *out_dir;     /* kat-gen: where the files go */
	unsigned sets;           /* mask; 0: all the submission has (check), all four (generate) */
	unsigned time_limit_s;
	unsigned jobs;           /* processes; 0: one per CPU */
} hb_katjobs_opts;

/* Check each library (build, regenerate, compare), its lines on stdout; *out_failed counts
 * those that did not pass. */
int hb_katjobs_check(size_t *out_failed, const hb_instance *const *insts, size_t n,
	const hb_katjobs_opts *o);
/* Write KAT_<set>_<instance>.txt of each set for each instance into out_dir, a "sha256  path"
 * line each on stdout; *out_failed counts the files that could not be made. */
int hb_katjobs_generate(size_t *out_failed, const hb_instance *const *insts, size_t n,
	const hb_katjobs_opts *o);

/* ---- the machine (envinfo.c) ---- */

/* What system.json says about the machine. Strings are NULL and numbers -1 when a value cannot
 * be read: never a guess. */
typedef struct {
	char *arch;          /* "x86_64" or "aarch64" (from the tree, not from this process) */
	char *processor;     /* model name; on AArch64 mapped from implementer/part numbers */
	char *machine;       /* DMI or device-tree name; NULL when the firmware gives none */
	int cpu;             /* the CPU the campaign pins to */
	char *governor;      /* cpufreq governor of that CPU */
	long long min_khz, max_khz, cur_khz;
	char *boost_name;    /* "boost" (cpufreq/boost) or "turbo" (intel_pstate/no_turbo) */
	char *boost_state;   /* "on" or "off" */
	char *smt;           /* "on", "off" or "none" (not supported) */
	long long memory_mib;
	char *os;            /* PRETTY_NAME of os-release */
	char *kernel;        /* kernel release */
	char *compiler;      /* first line of `<cc> --version` */
	char *build_tool;    /* first line of `cmake --version` */
	int virtual_machine; /* 1, 0, or -1 when unknown */
	char *hypervisor;    /* its name when known (DMI vendor or cpuinfo) */
	char **warnings;     /* why figures may be unstable; NULL-terminated */
} hb_env;

/* Read the machine below root ("/" for this one; tests pass recorded trees). cc and cmake are
 * run for the compiler and build tool only when run_tools is set. */
int hb_env_read(hb_env **out, const char *root, int cpu, const char *cc, int run_tools);
void hb_env_free(hb_env *env);

/* ---- the campaign (campaign.c) ---- */

#define HB_MAX_CPUS 16

typedef struct {
	const char *system;       /* name of this machine's evidence folder */
	const char *profile;      /* "guide" or "quick" */
	const char *submissions;  /* folder of algorithms */
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
} hb_campaign_opts;

typedef struct {
	size_t measured, kept, failed_records, kat_failed, build_failed, unstable;
	size_t remeasured, disturbed; /* records measured again; still disturbed after that */
} hb_campaign_summary;

/* Run a whole campaign; 0 when it ran to its end (failures of libraries are counted in out,
 * not returned), negative when it could not run (bad arguments, unwritable data folder). */
int hb_campaign_run(hb_campaign_summary *out, const hb_campaign_opts *o);
/* The system.json a campaign with these options would write (caller frees). */
int hb_campaign_system_json(char **out, const hb_campaign_opts *o);

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

/* Join the evidence folders of the shards of one campaign (README: "Splitting a campaign across
 * machines"): 0 when OUT/<system> was written; negative, with one line naming the inputs and
 * the file or field, when they cannot be joined, units are missing without allow_missing, or
 * writing failed. Nothing under OUT is changed unless it returns 0. */
int hb_merge(hb_merge_summary *out, const hb_merge_opts *o);
/* merge_sentinel.c: the shards' sentinel.json joined into outdir (nothing when none has one),
 * and campaign.sentinel of the merged system.json (NULL when no input has one). */
struct json_t;
int hb_merge_sentinel(const char *const *dirs, size_t n, const char *outdir);
struct json_t *hb_merge_sentinel_summary(struct json_t *const *systems, size_t n);


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

/* Convert the earlier harness's evidence (README: "Importing the earlier harness's evidence"):
 * 0 when data_dir/NAME was written, with what was skipped or refused counted in out (each listed
 * on progress, one line a file); negative, with one message, when nothing could be imported.
 * data_dir/NAME is replaced whole only on success and only when it is absent, empty or an
 * earlier import; catalog entries already in data_dir/algorithms are kept. */
int hb_import_ngcc_harness(hb_import_summary *out, const hb_import_opts *o);

#endif
