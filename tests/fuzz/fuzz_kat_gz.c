/* fuzz_kat_gz.c — libFuzzer target: a gzip-compressed KAT file (KAT_<set>_<inst>.txt.gz) read by
 * hb_file_read from a file (zlib), then through the KAT reader once. */
#include <stdlib.h>
#include <string.h>

#include "hbkat.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;
	hb_buf buf;
	char hex[65];

	if (!path)
		path = hbf_path("KAT_Loop_fuzz_256.txt.gz");
	hbf_write("KAT_Loop_fuzz_256.txt.gz", data, size);
	if (hb_file_read(&buf, path) != 0)
		return 0;
	/* the KAT reader itself is fuzz_kat's: one pass here */
	hb_kat_normalised_sha256(hex, (char *)buf.data, buf.len);
	hb_buf_free(&buf);
	return 0;
}
