/* fuzz_cache.c — libFuzzer target: the rebuild cache (<site>.hashgen-cache) read by hg_cache_load
 * from a file, then looked up as a rebuild does. */
#include <stdlib.h>

#include "sitewide.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;
	hg_cache c;
	size_t i;

	if (!path)
		path = hbf_path("site.hashgen-cache");
	hbf_write("site.hashgen-cache", data, size);
	hg_cache_load(&c, path);
	for (i = 0; i < c.nfiles; i++)
		if (hg_cache_file(&c, c.files[i].path) == NULL)
			abort(); /* a loaded file must be found again */
	for (i = 0; i < c.npages; i++)
		if (hg_cache_page(&c, c.pages[i].system, c.pages[i].id) == NULL)
			abort();
	hg_cache_file(&c, "x86_1/system.json");
	hg_cache_page(&c, "x86_1", "sm3");
	hg_cache_clear(&c);
	return 0;
}
