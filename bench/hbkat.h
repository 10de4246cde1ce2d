/* hbkat.h — the ICCS KAT procedure: the deterministic random generator (drng.c), and KAT files
 * regenerated with an implementation in the sandbox and compared with the submitted ones
 * (kat.c). */
#ifndef HB_KAT_H
#define HB_KAT_H

#include <stdint.h>
#include <stdio.h>

#include "hbbuild.h"
#include "hbpackage.h"
#include "hbsandbox.h"

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

/* ---- SUPERCOP's checksums (supercop_check.c) ---- */

/* One compiler setting tried: its checksums and the median cycles try printed (-1: none). */
typedef struct {
	char *compiler;
	const char *result;   /* PASS, FAIL, ERROR */
	char *detail;
	char small[65], big[65];
	long long cycles;
	double ratio, low, high; /* its try median over the fastest's, timed in turns (supercop_pick.c),
	                          * with its 95 % interval; -1: not timed so */
	size_t rounds;           /* the rounds of that */
	int within_noise;        /* within noise of the setting kept */
} hb_sc_setting;

typedef struct {
	hb_kat_report rep;      /* files[0] checksumsmall, files[1] checksumbig, of the setting kept */
	hb_sc_setting *settings;
	size_t nsettings;
	int chosen;             /* the setting kept, -1 when none passed */
} hb_sc_report;

/* Build inst (a SUPERCOP implementation) with each compiler line of compilers_file (NULL: the
 * tree's first), run the tree's try programs in the sandbox and keep the fastest setting that
 * passes both checksums: *out_build is its library (NULL when none passes). Each step on log. */
int hb_sc_check(hb_sc_report *out, hb_build_result **out_build, const hb_instance *inst,
	const char *compilers_file, const char *work, unsigned time_limit_s, FILE *log);
void hb_sc_report_clear(hb_sc_report *r);

/* ---- which compiler line to keep (supercop_pick.c) ---- */

#define HB_SC_PICK_ROUNDS 11       /* rounds of each line against the fastest, in turns */
#define HB_SC_PICK_MAX_ROUNDS 32
#define HB_SC_PICK_NOISE_PCT 1.0   /* a line is faster or slower only beyond this */

/* One compiler line: whether it passed, try's median on its check, and what the picking found. */
typedef struct {
	int passes;
	double cycles;
	double ratio, low, high; /* its median over the candidate's, from rounds in turns; -1: none */
	size_t rounds;
	int within_noise;        /* within noise of the line kept */
} hb_sc_pick_line;
/* Runs one line's timing once: its median cycles, < 0 when the run failed. */
typedef struct {
	double (*time_one)(void *ctx, size_t line);
	void *ctx;
} hb_sc_pick_fns;
/* The line to keep of lines[0..n): the candidate is the fastest that passes by its cycles; each
 * other line that passes runs rounds times in turns with it, and the ratio of each round's two
 * figures gives its paired ratio (paired.c); the fastest is the line faster than the candidate
 * beyond noise_pct by the most, else the candidate, and the line kept is the first (in lines'
 * order) whose ratio to the fastest holds 1 within noise, so that a tie measured again keeps the
 * same line; each line's within_noise says whether its ratio to the kept one holds 1 within
 * noise. -1 when none passes. */
int hb_sc_pick(hb_sc_pick_line *lines, size_t n, const hb_sc_pick_fns *fns, unsigned rounds,
	double noise_pct);

#endif
