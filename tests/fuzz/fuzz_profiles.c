/* fuzz_profiles.c — libFuzzer target: a profiles.conf text through the profile reader hb_build
 * uses (compiler, chosen profile with its fallbacks, flags) for several implementation names. */
#include <stdlib.h>

#include "hbbuild.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *wanted[] = { "reference", "optimized", "optimized-avx2-fast", "resource" };
	static const char *arch[] = { "x86_64", "aarch64" };
	char *text = hbf_strndup(data, size);
	size_t a, w;

	for (a = 0; a < 2; a++)
		for (w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++) {
			char *cc, *profile, *cflags;
			if (hb_profiles_resolve(&cc, &profile, &cflags, text, "profiles.conf", arch[a],
					wanted[w]) == 0 && (!cc || !profile || !cflags))
				abort(); /* success must give all three */
			free(cc);
			free(profile);
			free(cflags);
		}
	free(text);
	return 0;
}
