/* import.h — what import.c (the harness's folder, system.json, the catalog, writing) and
 * import_record.c (one record or KAT log of the harness, checked and converted) share. Internal to
 * bench/. */
#ifndef HB_IMPORT_H
#define HB_IMPORT_H

#include <jansson.h>

#include "hbcommands.h"
#include "hbutil.h"

/* Where a file of the harness lies: records/<id>/<file> or kat/<id>/<file>. */
typedef struct {
	const char *system; /* --system: the converted evidence names it */
	const char *id;     /* the algorithm's folder */
	const char *file;   /* the file's name in it */
	json_t *build;      /* build.json's "instances" object, or NULL: borrowed */
} hb_imp_ctx;

/* Our names of one library of the harness. */
typedef struct {
	char *instance, *impl;
	char *stem;            /* instance for the reference implementation, else instance.impl */
} hb_imp_names;

/* One schema-2 timing record, converted. Strings are owned, json_t references too. */
typedef struct {
	json_t *record;        /* the hashbench.record/1 object, without "imported" */
	json_t *environment;   /* the harness's environment object */
	hb_imp_names n;
	char *cflags;          /* the flags the library was built with */
	char *kat_log;         /* its KAT log, relative to the harness folder, or NULL */
	char *kat_log_sha256;  /* or NULL */
	char started[32], finished[32]; /* UTC, 2026-09-28T19:34:05Z */
	unsigned long long bytes;
	long long cpu;         /* cpu_number of its environment */
	long long plan_trials; /* plan.trials, or -1 */
	int complete;          /* status "complete": trials and figures are there */
	int counter_yes;       /* its first process had a hardware cycle counter */
} hb_imp_record;

/* One KAT log, read. */
typedef struct {
	json_t *summary;       /* the hashbench.kat/1 object, without "imported" */
	hb_imp_names n;
	char *algorithm;       /* its `algorithm =` line, or NULL */
	char *manifest;        /* sha256sum lines from its manifest lines, possibly empty */
} hb_imp_kat;

/* Read a record (text NUL-terminated at len). 0: converted into out; 1: not a hash record (*why
 * says what it is); -1: unusable, *why names the field ("trials[2].cycles: expected an integer
 * of 0 or more"). *why is the caller's to free, and so is out, whatever the result. */
int hb_imp_record_read(hb_imp_record *out, char **why, const hb_imp_ctx *c, const char *text,
	size_t len);
void hb_imp_record_clear(hb_imp_record *r);

/* Read a KAT log; 0 or -1 as hb_imp_record_read. */
int hb_imp_kat_read(hb_imp_kat *out, char **why, const hb_imp_ctx *c, const char *text,
	size_t len);
void hb_imp_kat_clear(hb_imp_kat *k);

/* An ISO 8601 time as Python's isoformat writes it ("2026-09-28T15:05:46.790099+00:00", a 'Z' or
 * no zone: UTC) in our form, "2026-09-28T15:05:46Z"; -1 when it is not one. */
int hb_imp_utc(char out[32], const char *iso);

/* A name that can be a file's: letters, digits, '.', '_' and '-', not starting with '.'. */
int hb_imp_name_ok(const char *s);

/* `hashbench <version> (git <commit>)`. */
const char *hb_imp_version(void);

/* ---- the import as a whole (import.c) ---- */

/* A file of the harness as read. */
typedef struct {
	char *src;        /* records/<id>/<file> or kat/<id>/<file> in the harness folder */
	char *id;
	hb_buf original;
	char sha256[65];
} hb_imp_orig;

typedef struct {
	hb_imp_record r;
	hb_imp_orig o;
} hb_imp_rfile;

typedef struct {
	hb_imp_kat k;
	hb_imp_orig o;
} hb_imp_kfile;

/* One import: what import.c read, for import_system.c to describe. */
typedef struct {
	const hb_import_opts *o;
	hb_import_summary *sum;
	char *dir;                  /* DIR without a trailing '/' */
	char *target;               /* DATA/NAME */
	json_t *campaign, *build;   /* campaign.json and build.json, NULL when absent */
	hb_buf campaign_raw, build_raw;
	json_t *instances;          /* build.json's "instances", borrowed */
	char **only;                /* --only, NULL-terminated; NULL: every algorithm */
	char **seen;                /* algorithm folders met, for --only */
	hb_imp_rfile *recs;
	size_t nrecs;
	hb_imp_kfile *logs;
	size_t nlogs;
	char *method;               /* the method page, NULL when none */
	hb_buf method_raw;
} hb_imp_run;

/* ---- what several files say together (import_system.c) ---- */

/* system.json of the import (caller decrefs); m holds at least one record. */
int hb_imp_system(json_t **out, const hb_imp_run *m);
/* The catalog entry of algorithm id made from its KAT logs and records (caller decrefs). */
json_t *hb_imp_catalog_entry(hb_imp_run *m, const char *id);

#endif
