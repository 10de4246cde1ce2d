/* fuzz_kat.c — libFuzzer target: a submitted KAT text through the KAT reader (entry parser,
 * comparison both ways with a reference text, normalised SHA-256, byte-aligned filter). */
#include <stdlib.h>
#include <string.h>

#include "hbkat.h"
#include "fuzzutil.h"

/* The other side of the comparisons: the first entries of KAT_2_12 for SM3. */
static const char S_ref[] =
	"Msg_Len = 0\nMsg = \nDst_Len = 256\n"
	"Dst = 1AB21D8355CFA17F8E61194831E81A8F22BEC8C728FEFB747ED035EB5082AA2B\n\n"
	"Msg_Len = 1\nMsg = 80\nDst_Len = 256\n"
	"Dst = 985FFE9568BE96328729B1C16631E9328D356432413D7556A646B9EEFE479B9E\n\n"
	"Msg_Len = 2\nMsg = 40\nDst_Len = 256\n"
	"Dst = FC939DA34924D82AC330120E305820CDE470117412B59DC71CA1DA5637ACEA21\n\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the reader gets a length, not a string: no terminator, so a read past it is caught */
	const char *text = (const char *)data;
	hb_buf buf;
	char hex[65];
	size_t entries;

	/* each side once: an input that starts with the reference's entries compares them equal */
	hb_kat_compare(S_ref, sizeof(S_ref) - 1, text, size, &entries);
	hb_kat_compare(text, size, S_ref, sizeof(S_ref) - 1, NULL);
	hb_kat_normalised_sha256(hex, text, size);

	/* as hb_file_read gives it: a NUL after the bytes */
	buf.data = (unsigned char *)hbf_strndup(data, size);
	buf.len = size;
	hb_kat_keep_byte_aligned(&buf);
	hb_buf_free(&buf);
	return 0;
}
