/* fuzz_cache.c — libFuzzer target: the rebuild cache (<site>.hashgen-cache/) read as a rebuild
 * reads it: the input as one page's entry (hg_cache_page_load, then its files looked up) and as
 * the build's "meta" (hg_cmeta_load, then each name looked up). */
#include <stdlib.h>
#include <string.h>

#include "sitewide.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *dir;
	hg_cpage p;
	hg_cmeta m;
	size_t i;

	if (!dir)
		dir = hbf_path("cache");
	hbf_write("cache/x86_1/hash-15", data, size);
	hbf_write("cache/meta", data, size);
	if (hg_cache_page_load(&p, dir, "x86_1", "hash-15", 1) == 0) {
		for (i = 0; i < p.nfiles; i++)
			if (hg_cpage_file(&p, p.files[i].path) == NULL)
				abort(); /* a loaded file must be found again */
		if (strcmp(p.system, "x86_1") != 0 || strlen(p.key) != 64 || strlen(p.own) != 64)
			abort();
		hg_cpage_file(&p, "x86_1/system.json");
		hg_cpage_clear(&p);
	}
	if (hg_cmeta_load(&m, dir) == 0) {
		for (i = 0; i < m.n; i++)
			if (hg_cmeta_get(&m, m.names[i]) == NULL)
				abort();
		hg_cmeta_clear(&m);
	}
	return 0;
}
