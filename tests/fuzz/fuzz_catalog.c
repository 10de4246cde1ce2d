/* fuzz_catalog.c — libFuzzer target: hb_catalog_load on a minimal submission tree whose
 * algorithm.json (most inputs), instance C source or instance header is the input; the first
 * byte chooses the file, the rest is its content. */
#include <stdlib.h>
#include <string.h>

#include "hbpackage.h"
#include "fuzzutil.h"

/* the instance folder: shallow, as every level is walked once per input */
#define INST "cat/toy/Reference_Implementation/Toy-256/"

static const struct {
	const char *rel, *text;
} S_files[] = {
	{ "cat/toy/algorithm.json",
		"{\"id\": \"toy-1\", \"name\": \"Toyhash\", \"parameter_sets\": [\"toy_256\"],\n"
		" \"build\": {\"*\": {\"include_dirs\": [\"Reference_Implementation\"]},\n"
		"  \"toy_256:reference\": {\"exclude\": [\"main.c\"], \"cflags\": [\"-DTOY\"],\n"
		"   \"ldflags\": [\"-lm\"], \"kat_scope\": \"byte-aligned\", \"profile\": \"reference\"}}}\n" },
	{ INST "toy_core.c",
		"#include \"CryptHash_AlgorithmInstance.h\"\n"
		"int CryptHash(int b, const unsigned char *m, unsigned long long n, unsigned char *d)\n"
		"{ (void)b; (void)m; (void)n; d[0] = 0; return 0; }\n" },
	{ INST "CryptHash_AlgorithmInstance.h",
		"#define ALGORITHM_INSTANCE \"toy_256\"\n#define DIGEST_BIT_LENGTH 256\n" },
	/* not replaced by inputs: a submitted KAT file and a manifest (fuzz_manifest reads those) */
	{ INST "kat.sha256",
		"abd431554c4bd15de2b6b7147b39dbf6cbeab3f51fcd946c2344c62c821bdb1d  KAT_2_12_toy_256.txt\n" },
	{ INST "KAT_Loop_toy_256.txt", "Msg_Len = 8\nMsg = 00\nDst_Len = 256\nDst = 00\n\n" },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *dir;
	static int last = -1;
	hb_catalog *cat = NULL;
	size_t i, k;
	int which;

	if (!dir) {
		for (i = 0; i < sizeof(S_files) / sizeof(S_files[0]); i++)
			hbf_write_str(S_files[i].rel, S_files[i].text);
		dir = hbf_path("cat");
	}
	if (size < 1)
		return 0;
	/* bytes 0-127: algorithm.json; 128-191: the C source; 192-255: the header */
	which = data[0] < 128 ? 0 : data[0] < 192 ? 1 : 2;
	if (last >= 0 && last != which)
		hbf_write_str(S_files[last].rel, S_files[last].text);
	hbf_write(S_files[which].rel, data + 1, size - 1);
	last = which;

	if (hb_catalog_load(&cat, dir) == 0) {
		const hb_instance *found;
		for (i = 0; i < cat->nalgorithms; i++)
			for (k = 0; k < cat->algorithms[i].ninstances; k++)
				free(hb_instance_stem(&cat->algorithms[i].instances[k]));
		hb_catalog_find(&found, cat, "toy_256");
		hb_catalog_free(cat);
	}
	return 0;
}
