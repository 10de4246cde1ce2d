/* make_golden.c — hbt_golden, which make golden runs: rewrites the site tests' golden pages
 * (tests/fixtures/golden/) and sum lists (tests/fixtures/site-sums/) from this build's hashgen,
 * for a change that is meant to alter the pages; the change then shows in review. */
#include <stdio.h>
#include <stdlib.h>

#include "genutil.h"
#include "golden.h"
#include "hbutil.h"

int main(int argc, char **argv)
{
	char *work;
	int rc;

	if (argc != 1) {
		fprintf(stderr, "usage: %s (rewrites tests/fixtures/golden/ and site-sums/)\n", argv[0]);
		return 2;
	}
	work = hb_path_join(HBT_WORK, "golden-rewrite");
	rc = hg_rm_rf(work) == 0 ? hbt_golden_rewrite(work) : -1;
	if (rc == 0)
		printf("hbt_golden: rewrote %s and %s: review them with git diff\n", HBT_GOLDEN_DIR,
			HBT_SUMS_DIR);
	free(work);
	return rc == 0 ? 0 : 1;
}
