/* ownfiles.c — where hashbench's own files are: in an installed tree, found from the executable
 * itself (<prefix>/bin/hashbench → <prefix>/share/hashbench, <prefix>/libexec/hashbench), so the
 * tree can be moved; else in the checkout it was built from (the paths CMake compiled in). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "hbutil.h"

#ifndef HB_PROFILES_DEFAULT
#define HB_PROFILES_DEFAULT "bench/profiles.conf"
#endif
#ifndef HB_ALGORITHMS_DEFAULT
#define HB_ALGORITHMS_DEFAULT "bench/algorithms"
#endif
#ifndef HB_WORK_DEFAULT
#define HB_WORK_DEFAULT "build/work"
#endif
#ifndef HB_NULL_SOURCE
#define HB_NULL_SOURCE "bench/null/CryptHash_null.c"
#endif

static char S_paths[HB_OWN_COUNT][PATH_MAX + 64];
static int S_resolved;

/* The folder of the running executable (with its trailing '/'), or "" when unknown. */
static void S_exe_dir(char *out, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", out, size - 1);
	char *slash;

	if (n <= 0) {
		out[0] = 0;
		return;
	}
	out[n] = 0;
	slash = strrchr(out, '/');
	if (slash)
		slash[1] = 0;
	else
		out[0] = 0;
}

/* The work folder of an installed hashbench: $XDG_CACHE_HOME/hashbench/work, else
 * ~/.cache/hashbench/work, else one per user under /tmp. */
static void S_installed_work(char *out, size_t size)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (cache && cache[0] == '/')
		snprintf(out, size, "%s/hashbench/work", cache);
	else if (home && home[0] == '/')
		snprintf(out, size, "%s/.cache/hashbench/work", home);
	else
		snprintf(out, size, "/tmp/hashbench-work-%u", (unsigned)getuid());
}

static void S_resolve(void)
{
	char dir[PATH_MAX], prefix[PATH_MAX], probe[PATH_MAX + 64];
	size_t len;
	int installed = 0;

	S_exe_dir(dir, sizeof(dir));
	len = strlen(dir);
	/* installed: the executable lies in <prefix>/bin/ beside <prefix>/share/hashbench/ */
	if (len > 5 && strcmp(dir + len - 5, "/bin/") == 0) {
		memcpy(prefix, dir, len - 5);
		prefix[len - 5] = 0;
		snprintf(probe, sizeof(probe), "%s/share/hashbench/profiles.conf", prefix);
		installed = access(probe, R_OK) == 0;
	}
	if (installed) {
		snprintf(S_paths[HB_OWN_PROFILES], sizeof(S_paths[0]),
			"%s/share/hashbench/profiles.conf", prefix);
		snprintf(S_paths[HB_OWN_ALGORITHMS], sizeof(S_paths[0]), "%s/share/hashbench/algorithms",
			prefix);
		snprintf(S_paths[HB_OWN_NULL_SOURCE], sizeof(S_paths[0]),
			"%s/libexec/hashbench/null/CryptHash_null.c", prefix);
		snprintf(S_paths[HB_OWN_MEASURE], sizeof(S_paths[0]),
			"%s/libexec/hashbench/hashbench-measure", prefix);
		S_installed_work(S_paths[HB_OWN_WORK], sizeof(S_paths[0]));
	} else {
		snprintf(S_paths[HB_OWN_PROFILES], sizeof(S_paths[0]), "%s", HB_PROFILES_DEFAULT);
		snprintf(S_paths[HB_OWN_ALGORITHMS], sizeof(S_paths[0]), "%s", HB_ALGORITHMS_DEFAULT);
		snprintf(S_paths[HB_OWN_NULL_SOURCE], sizeof(S_paths[0]), "%s", HB_NULL_SOURCE);
		snprintf(S_paths[HB_OWN_MEASURE], sizeof(S_paths[0]), "%shashbench-measure", dir);
		snprintf(S_paths[HB_OWN_WORK], sizeof(S_paths[0]), "%s", HB_WORK_DEFAULT);
	}
	if (getenv("HASHBENCH_WORK") && getenv("HASHBENCH_WORK")[0])
		snprintf(S_paths[HB_OWN_WORK], sizeof(S_paths[0]), "%s", getenv("HASHBENCH_WORK"));
	S_resolved = 1;
}

const char *hb_own_path(hb_own_file which)
{
	if (!S_resolved)
		S_resolve();
	return S_paths[which];
}

char *hb_machine_name(void)
{
	struct utsname u;
	char host[256], *name, *p;

	if (uname(&u) != 0)
		return hb_strdup("this-machine");
	snprintf(host, sizeof(host), "%s", u.nodename);
	if ((p = strchr(host, '.')) != NULL)
		*p = 0;
	name = hb_sprintf("%s-%s", u.machine, host[0] ? host : "host");
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
				*p == '_' || *p == '.' || *p == '-'))
			*p = '-';
	if (strlen(name) > 64)
		name[64] = 0;
	return name;
}
