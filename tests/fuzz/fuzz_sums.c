/* fuzz_sums.c — libFuzzer target: a system's SHA256SUMS through the reader hg_data_load uses,
 * then looked up as the pages do (a file's line, the files listed for an algorithm but missing). */
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *ids[] = { "hash-15", "sm3", "" };
	char *text = hbf_strndup(data, size);
	hg_system s;
	size_t i, k;

	memset(&s, 0, sizeof(s));
	s.name = "x86_1";
	if (hg_sums_parse(&s, text, "x86_1/SHA256SUMS") == 0) {
		for (i = 0; i < s.nsums; i++) {
			hg_evfile f;
			memset(&f, 0, sizeof(f));
			f.file = s.sums[i].path;
			memcpy(f.sha256, s.sums[i].sha256, 65);
			hg_evfile_check(&f, &s);
			if (f.state == HG_SUM_UNLISTED)
				abort(); /* every path read must be found again (sorted for the search) */
		}
		for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			hg_evfile *files = NULL;
			size_t n = 0;
			hg_evidence_missing(&files, &n, &s, ids[k]);
			for (i = 0; i < n; i++)
				free(files[i].file);
			free(files);
		}
		hg_system_sum(&s, "system.json");
	}
	for (i = 0; i < s.nsums; i++)
		free(s.sums[i].path);
	free(s.sums);
	free(text);
	return 0;
}
