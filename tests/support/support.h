/* support.h — what every hashbench test shares: paths, the baselines as loaded libraries and
 * running the CLI as a user does. */
#ifndef HBT_SUPPORT_H
#define HBT_SUPPORT_H

#include <criterion/criterion.h>

#include "hbpackage.h"
#include "hbsandbox.h"

/* ../shared beside the repository, or NULL when this clone has none. */
const char *hbt_shared(void);
/* Skip the current test with a visible message when ../shared is absent. */
#define HBT_REQUIRE_SHARED()                                                            \
	do {                                                                                \
		if (!hbt_shared())                                                              \
			cr_skip_test("../shared is not beside this clone: official vectors skipped"); \
	} while (0)

/* Under user-mode emulation (qemu-user: make test-aarch64), skip a test that needs what the
 * emulator cannot give its guest, named in what. Detected at run time (hb_emulated). */
#define HBT_SKIP_UNDER_EMULATION(what)                                                  \
	do {                                                                                \
		if (hb_emulated())                                                              \
			cr_skip_test("qemu-user cannot give its guest %s", what);                   \
	} while (0)
/* A --time-limit a correct library must finish within: native_s seconds, ten times that under
 * user-mode emulation (which runs the fixtures' code about six times slower). Caller frees. */
char *hbt_time_limit(unsigned native_s);

/* A Criterion .timeout of s seconds, at least ten times the test's normal time; ten times
 * longer in the cross build, whose tests run under qemu-user (HBT_TIMEOUT_SCALE). */
#define HBT_TIMEOUT(s) ((s) * HBT_TIMEOUT_SCALE)

/* Path under ../shared (caller frees). */
char *hbt_shared_path(const char *rel);

/* The bundled baselines, built once per test process. */
const hb_catalog *hbt_catalog(void);
const hb_instance *hbt_instance(const char *spec);
/* Built and loaded library of a baseline instance; asserts on failure. */
const hb_impl *hbt_impl(const char *spec);
const char *hbt_library(const char *spec);

/* Run build/bin/hashbench with args (NULL-terminated, without argv[0]); stdin from a string
 * (NULL: /dev/null). Returns the exit status; *out and *err get stdout and stderr. */
int hbt_cli(char **out, char **err, const char *stdin_data, const char *const args[]);

/* A fresh empty folder under the test work folder (caller frees). */
char *hbt_tmpdir(const char *name);
void hbt_write(const char *path, const void *data, size_t len);
/* Replace the first from in the file dir/rel by to; asserts that the file holds from. */
void hbt_replace(const char *dir, const char *rel, const char *from, const char *to);

/* Finished records (…__hash_<n>.json, no temporary file) in the folder dir; 0 when it is absent. */
size_t hbt_count_records(const char *dir);

/* dir/rel parsed as JSON; asserts that it parses. The caller decrefs. */
struct json_t *hbt_json_load(const char *dir, const char *rel);

/* Does the evidence file at path parse and follow the contract of DESIGN.md (record, system or
 * KAT summary, chosen by its "schema")? 0, or -1 with the problem in *why (caller frees). */
int hbt_evidence_valid(const char *path, char **why);
/* Check every .json under dir with hbt_evidence_valid; returns how many files were checked. */
size_t hbt_evidence_check_tree(const char *dir);

#endif
