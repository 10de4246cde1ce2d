/* fuzz_sums.c — libFuzzer target: a system's SHA256SUMS through hashgen's evidence reader (loaded
 * with the system, then checked against every evidence file and searched for missing ones). */
#include "evtree.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hbf_evtree_make();
	hbf_evtree_set(HBF_EV_SUMS, data, size);
	hbf_evtree_load();
	return 0;
}
