/* emulation.c — which architecture /proc/cpuinfo describes, and whether this program runs under
 * user-mode emulation (qemu-user shows the host's /proc/cpuinfo to a program of another). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "hbutil.h"

#if defined(__aarch64__)
#define S_OWN_ARCH "aarch64"
#elif defined(__x86_64__)
#define S_OWN_ARCH "x86_64"
#else
#define S_OWN_ARCH NULL
#endif

const char *hb_own_arch(void)
{
	return S_OWN_ARCH;
}

/* Whether a line of text starts with key and then, after blanks, a colon. */
static int S_has_key(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;
	while (p && *p) {
		if (strncmp(p, key, klen) == 0) {
			const char *q = p + klen;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == ':')
				return 1;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

const char *hb_cpuinfo_arch(const char *cpuinfo)
{
	if (!cpuinfo)
		return NULL;
	if (S_has_key(cpuinfo, "CPU implementer"))
		return "aarch64";
	if (S_has_key(cpuinfo, "vendor_id") || S_has_key(cpuinfo, "flags"))
		return "x86_64";
	return NULL;
}

int hb_emulated(void)
{
	static int known = -1;
	if (known < 0) {
		hb_buf b;
		const char *arch = NULL;
		if (hb_file_read_raw(&b, "/proc/cpuinfo") == 0) {
			arch = hb_cpuinfo_arch((const char *)b.data);
			known = arch && S_OWN_ARCH && strcmp(arch, S_OWN_ARCH) != 0;
			hb_buf_free(&b);
		} else {
			known = 0;
		}
	}
	return known;
}
