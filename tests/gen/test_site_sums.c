/* test_site_sums.c — every file of three rendered sites, byte for byte: the fixture field, the
 * imported fixture and the bundled baselines' evidence of a real quick campaign, each held against
 * a checked-in list of SHA-256 sums (tests/fixtures/site-sums/); make golden rewrites the lists
 * when a change to the pages is meant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genutil.h"
#include "golden.h"
#include "hashgen.h"
#include "support.h"

/* The first line of want that got lacks, for a message that names the file. */
static const char *S_first_missing(const char *want, const char *got, char *buf, size_t size)
{
	const char *p = want;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = (size_t)(e - p);
		char line[512];
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		if (!strstr(got, line)) {
			snprintf(buf, size, "%s", line + 66);
			return buf;
		}
		p = e + 1;
	}
	return "(none)";
}

/* Site i of hbt_golden_sites, rendered, against its checked-in sum list. */
static void S_check_site(size_t i)
{
	const char *name = hbt_golden_sites[i][0];
	char *work = hbt_tmpdir(name), *site = hb_path_join(work, "site"), *err = NULL;
	char *listfile = hb_sprintf("%s/%s.sha256", HBT_SUMS_DIR, name), *got, *want = NULL;
	char buf[512], buf2[512];
	size_t len;

	HBT_REFUSE_GOLDEN_UPDATE();
	cr_assert_eq(hbt_site_build(hbt_golden_sites[i][1], site, 0, &err), 0, "%s: %s", name, err);
	got = hbt_site_sums(site);
	cr_assert_not_null(got, "%s: the sums of the rendered site", name);
	cr_assert_eq(hg_read_file(&want, &len, listfile), 0, "%s", hg_error_last());
	cr_expect_str_eq(got, want, "the %s site is no longer the same bytes: first changed or "
		"missing file %s, first changed or new file %s (make golden rewrites "
		"tests/fixtures/site-sums/ when the change is meant)", name,
		S_first_missing(want, got, buf, sizeof(buf)),
		S_first_missing(got, want, buf2, sizeof(buf2)));
	free(want);
	free(got);
	free(err);
	free(listfile);
	free(site);
	free(work);
}

Test(site_sums, fixture_field)
{
	S_check_site(0);
}

Test(site_sums, imported_evidence)
{
	S_check_site(1);
}

Test(site_sums, bundled_baselines)
{
	S_check_site(2);
}
