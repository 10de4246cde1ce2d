/* xmlsink.h — libxml2's serialiser writing into a growing buffer of ours (xmlsink.c), private to
 * the renderers (render_html.c, chart_svg.c): it names libxml2's types, which no public header
 * does. */
#ifndef HG_XMLSINK_H
#define HG_XMLSINK_H

#include <stddef.h>
#include <stdio.h>

#include <libxml/xmlIO.h>

typedef struct {
	char *data;      /* NUL-terminated once anything was written; the caller frees it */
	size_t len, cap;
	int failed;      /* out of memory, or f failed */
	FILE *f;         /* not NULL: the bytes go there instead, as they come */
} hg_xml_sink;

/* An output buffer writing into k (start it zeroed); NULL when out of memory. */
xmlOutputBufferPtr hg_xml_sink_open(hg_xml_sink *k);
/* n bytes appended to k directly; -1 when out of memory. */
int hg_xml_sink_add(hg_xml_sink *k, const char *p, size_t n);

#endif
