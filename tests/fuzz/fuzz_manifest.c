/* fuzz_manifest.c — libFuzzer target: a submitted kat.sha256 manifest through its line reader,
 * asked for the file of every KAT set. */
#include <stdlib.h>
#include <string.h>

#include "hbpackage.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *want[] = { "KAT_2_12_toy_256.txt", "KAT_2_23_toy_256.txt",
		"KAT_2_33_toy_256.txt", "KAT_Loop_toy_256.txt" };
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		/* a fresh copy each time: the reader cuts the text in place, as S_find_kat's buffer */
		char *text = hbf_strndup(data, size);
		free(hb_kat_manifest_find(text, want[i]));
		free(text);
	}
	return 0;
}
