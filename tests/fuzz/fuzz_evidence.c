/* fuzz_evidence.c — libFuzzer target: hashgen's evidence reader (hg_data_load, hg_sysalg_load and
 * the figures of the records) on a minimal data/ tree whose system.json, timing record, KAT
 * summary or catalog entry is the input; the first byte chooses the file, the rest is its content. */
#include "evtree.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int last = -1;
	int which;

	hbf_evtree_make();
	if (size < 1)
		return 0;
	which = data[0] % 4; /* HBF_EV_SYSTEM, _RECORD, _KAT or _ENTRY */
	if (last >= 0 && last != which)
		hbf_evtree_restore(last);
	hbf_evtree_set(which, data + 1, size - 1);
	last = which;
	hbf_evtree_load();
	return 0;
}
