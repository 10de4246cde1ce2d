/* fuzz_sums.c — libFuzzer target: a system's SHA256SUMS through the reader hg_data_load uses,
 * then looked up as the pages do (a file's line, an algorithm's lines, the files listed for an
 * algorithm but missing). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evidence.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *ids[] = { "hash-15", "sm3", "" };
	int fd = memfd_create("SHA256SUMS", MFD_CLOEXEC);
	hg_system s;
	hg_sum *all = NULL;
	size_t i, k, nall = 0;
	char sum[65];

	if (fd < 0 || hg_write_all(fd, data, size) != 0)
		abort();
	memset(&s, 0, sizeof(s));
	s.name = "x86_1";
	if (hg_sums_load(&s, fd, "x86_1/SHA256SUMS") == 0) {
		if (hg_sums_under(&all, &nall, &s, "") != 0)
			abort(); /* the file did not change */
		for (i = 0; i < nall; i++) {
			hg_evfile f;
			memset(&f, 0, sizeof(f));
			f.file = all[i].path;
			memcpy(f.sha256, all[i].sha256, 65);
			if (i > 0 && strcmp(all[i - 1].path, all[i].path) > 0)
				abort(); /* sorted for the search */
			if (hg_system_sum(sum, &s, f.file) != 0 || !sum[0])
				abort(); /* every path read must be found again */
		}
		for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			hg_evfile *files = NULL;
			hg_sum *v;
			size_t n = 0, nv;
			if (hg_sums_of(&v, &nv, &s, ids[k]) != 0)
				abort();
			hg_evidence_missing(&files, &n, &s, ids[k], v, nv);
			for (i = 0; i < n; i++)
				free(files[i].file);
			free(files);
			hg_sums_free(v, nv);
		}
		hg_system_sum(sum, &s, "system.json");
	}
	hg_sums_free(all, nall);
	hg_sumindex_free(s.sums);
	return 0;
}
