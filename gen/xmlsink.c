/* xmlsink.c — libxml2's serialiser writing into a growing buffer of ours, so that a large page or
 * chart is never copied once more after it is serialised, or straight into a file. */
#include <stdlib.h>
#include <string.h>

#include "xmlsink.h"

int hg_xml_sink_add(hg_xml_sink *k, const char *p, size_t n)
{
	if (k->failed)
		return -1;
	if (k->f) {
		if (fwrite(p, 1, n, k->f) != n) {
			k->failed = 1;
			return -1;
		}
		return 0;
	}
	if (k->len + n + 1 > k->cap) {
		size_t cap = k->cap ? k->cap : 64 * 1024;
		char *grown;
		while (k->len + n + 1 > cap)
			cap *= 2;
		grown = realloc(k->data, cap);
		if (!grown) {
			k->failed = 1;
			return -1;
		}
		k->data = grown;
		k->cap = cap;
	}
	memcpy(k->data + k->len, p, n);
	k->len += n;
	k->data[k->len] = '\0';
	return 0;
}

static int S_write(void *ctx, const char *buf, int n)
{
	if (n <= 0)
		return 0;
	return hg_xml_sink_add(ctx, buf, (size_t)n) == 0 ? n : -1;
}

static int S_close(void *ctx)
{
	(void)ctx;
	return 0;
}

xmlOutputBufferPtr hg_xml_sink_open(hg_xml_sink *k)
{
	return xmlOutputBufferCreateIO(S_write, S_close, k, NULL);
}
