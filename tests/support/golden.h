/* golden.h — the golden files of the site tests (tests/fixtures/golden/ and site-sums/): what
 * they hold and how they are made. make golden rewrites them (hbt_golden); a test only compares. */
#ifndef HBT_GOLDEN_H
#define HBT_GOLDEN_H

#define HBT_GOLDEN_DIR HBT_FIXTURES "/golden"
#define HBT_SUMS_DIR HBT_FIXTURES "/site-sums"

/* The pages of the fixture field (tests/fixtures/data) held whole in HBT_GOLDEN_DIR. */
extern const char *const hbt_golden_pages[];
/* The sites held as sum lists in HBT_SUMS_DIR/<name>.sha256: { name, data folder }. */
extern const char *const hbt_golden_sites[][2];

/* hashgen's site build of data into out, with the test's generator name and this repository's
 * templates. 0, or -1; *err (when err) gets the error, or the warnings on success (caller frees). */
int hbt_site_build(const char *data, const char *out, int strict, char **err);
/* The sorted "sha256  path" list of every regular file under site, or NULL with the reason on
 * standard error (caller frees). */
char *hbt_site_sums(const char *site);
/* Rewrite every golden file from a build under work; 0, or -1 with the reason on standard error. */
int hbt_golden_rewrite(const char *work);

/* A test fails, naming make golden, when it is asked to rewrite its golden files. */
#define HBT_REFUSE_GOLDEN_UPDATE()                                                      \
	cr_assert_null(getenv("HBT_UPDATE_GOLDEN"), "HBT_UPDATE_GOLDEN is set: tests never "  \
		"rewrite their golden files, make golden does")

#endif
