/* supercop_fixture.h — what the tests of hashbench over ../shared/supercop share: the tree, the
 * machine, a work folder per test program, writable copies, the tree's checksums and kat-check's
 * report read as blocks. */
#ifndef HBT_SUPERCOP_FIXTURE_H
#define HBT_SUPERCOP_FIXTURE_H

#include <stddef.h>

#include "support.h"

/* The tree's okcompilers/c lines 1 (its default) and 3. */
#define HBT_SC_O3 "gcc -march=native -mtune=native -O3 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall"
#define HBT_SC_O2 "gcc -march=native -mtune=native -O2 -fwrapv -fPIC -fPIE -gdwarf-4 -Wall"

/* ../shared/supercop (caller frees), or skip the test with a message. */
char *hbt_sc_tree(void);
/* ../shared/supercop-libs (XKCP's k/ and k-targets, sha3256/usekcp), or skip. */
char *hbt_sc_libs_overlay(void);
/* uname's machine ("x86_64"). */
const char *hbt_sc_machine(void);
/* Skip where no native compiler can build the tree's -march=native lines (qemu-user). */
void hbt_sc_require_native_compiler(void);
/* Skip where the fixture's checksum outcomes are not documented (other than x86-64). */
void hbt_sc_require_x86_64(void);

/* One --work folder for every test of this program, so that each implementation is built once;
 * private, under /tmp, named after the build folder and the program. hbt_sc_work_reset empties
 * it (from the program's ReportHook(PRE_ALL)); hbt_sc_work_dir makes it if it is missing. */
void hbt_sc_work_reset(void);
const char *hbt_sc_work_dir(void);

/* A writable copy of the tree under a fresh test folder named name (caller frees). */
char *hbt_sc_copy(const char *tree, const char *name);
/* The first 16 hex digits of a primitive's checksumsmall or checksumbig as kat-check shows them
 * ("87baaef0918b9e5d…"; caller frees). */
char *hbt_sc_expected(const char *tree, const char *prim, const char *which);
/* kat-check's block of prim (impl) passing both checksums at the compiler line (caller frees). */
char *hbt_sc_pass_block(const char *tree, const char *prim, const char *impl, const char *line);
/* sh -c cmd; its exit status. */
int hbt_sc_sh(const char *cmd);
/* The text of dir/rel (caller frees); asserts that it reads. */
char *hbt_sc_text(const char *dir, const char *rel);
/* Write text to dir/rel. */
void hbt_sc_put(const char *dir, const char *rel, const char *text);

/* kat-check's standard output as blocks: each library's file lines, then its result line. */
typedef struct {
	char *name[64]; /* "md5 (ref)" */
	char *text[64]; /* its indented lines and its own line, each ending in a newline */
	size_t n;
	char *summary; /* the last line, without its newline */
} hbt_sc_report;

void hbt_sc_parse_report(hbt_sc_report *r, const char *out);
/* The block of the library called name; asserts that there is one. */
const char *hbt_sc_block(const hbt_sc_report *r, const char *name);
void hbt_sc_report_free(hbt_sc_report *r);
/* kat-check of tree (all of it when only is NULL) with the work folder and two jobs; the NGCC
 * baselines come too, with the one set 2_23 (--sets does not touch the SUPERCOP checksums).
 * Returns the exit status; *err its standard error. */
int hbt_sc_kat_check(hbt_sc_report *r, char **err, const char *tree, const char *compilers,
	const char *only);

/* A quick campaign "t" of the primitives only of tree into data, two passes at sizes, with CPU
 * locks of its own in locks (a lab's campaign timing here must not make it wait; the figures are
 * not what these tests look at). Its exit status, *out and *err. */
int hbt_sc_quick_run(char **out, char **err, const char *tree, const char *data,
	const char *only, const char *sizes, const char *locks);

/* A quick campaign's folders under a fresh test folder named name: data/, its system t/, the
 * site hashgen renders and the campaign's own CPU locks. */
typedef struct {
	char *tmp, *data, *sys, *site, *locks;
} hbt_sc_campaign;
void hbt_sc_campaign_dirs(hbt_sc_campaign *c, const char *name);
void hbt_sc_campaign_free(hbt_sc_campaign *c);
/* hashgen with option (--strict: render; --check: compare) over c's data and site, quietly;
 * its exit status. */
int hbt_sc_hashgen(const hbt_sc_campaign *c, const char *option);

/* The string member key of the JSON object j, or "(not a string)". */
const char *hbt_sc_str(struct json_t *j, const char *key);

#endif
