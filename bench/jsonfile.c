/* jsonfile.c — JSON evidence written to files, indented and in key order, and the UTC time stamps
 * it carries. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "hbutil.h"

void hb_utc_now(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *hb_json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *hb_json_int_or_null(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

int hb_json_write(const char *path, json_t *j)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	size_t len;
	char *with_nl;
	int rc;

	if (!text)
		return hb_error_set("%s: cannot serialise JSON", path);
	len = strlen(text);
	with_nl = realloc(text, len + 2);
	if (!with_nl) {
		free(text);
		return hb_error_set("out of memory");
	}
	with_nl[len] = '\n';
	with_nl[len + 1] = 0;
	rc = hb_file_write_atomic(path, with_nl, len + 1);
	free(with_nl);
	return rc;
}
