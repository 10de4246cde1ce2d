/* error.c — one stored message per thread, the libgit2 way: functions return a negative
 * code and leave the message here for the caller to print. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hbutil.h"

static _Thread_local char S_message[2048];

int hb_error_set(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(S_message, sizeof(S_message), fmt, ap);
	va_end(ap);
	return HB_ERROR;
}

int hb_error_prefix(const char *fmt, ...)
{
	char prefix[1024], old[sizeof(S_message)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, S_message, sizeof(old));
	size_t n = strlen(prefix);
	if (n >= sizeof(S_message))
		n = sizeof(S_message) - 1;
	memcpy(S_message, prefix, n);
	snprintf(S_message + n, sizeof(S_message) - n, "%s", old);
	return HB_ERROR;
}

const char *hb_error_last(void)
{
	return S_message[0] ? S_message : "unknown error";
}
