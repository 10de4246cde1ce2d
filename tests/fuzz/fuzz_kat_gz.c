/* fuzz_kat_gz.c — libFuzzer target: a gzip-compressed KAT file (KAT_<set>_<inst>.txt.gz) read by
 * hb_file_read from a file, then through the KAT reader. */
#include <stdlib.h>
#include <string.h>

#include "hashbench.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;
	hb_buf buf;
	char hex[65];
	size_t entries;

	if (!path)
		path = hbf_path("KAT_Loop_fuzz_256.txt.gz");
	hbf_write("KAT_Loop_fuzz_256.txt.gz", data, size);
	if (hb_file_read(&buf, path) != 0)
		return 0;
	hb_kat_compare((char *)buf.data, buf.len, (char *)buf.data, buf.len, &entries);
	hb_kat_normalised_sha256(hex, (char *)buf.data, buf.len);
	hb_kat_keep_byte_aligned(&buf);
	hb_buf_free(&buf);
	return 0;
}
