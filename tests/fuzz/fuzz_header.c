/* fuzz_header.c — libFuzzer target: a submission's C header through the scanner that reads
 * ALGORITHM_INSTANCE and DIGEST_BIT_LENGTH. */
#include <stdlib.h>

#include "hbpackage.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* as hb_file_read gives it: the bytes and a NUL after them */
	char *text = hbf_strndup(data, size), *name = NULL;
	int bits;

	if (hb_header_scan(&name, &bits, text, size, "CryptHash_AlgorithmInstance.h") == 1 &&
		(!name || bits <= 0))
		abort(); /* a definition accepted must give a name and a positive length */
	free(name);
	free(text);
	return 0;
}
