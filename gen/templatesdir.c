/* templatesdir.c — where hashgen's templates are when --templates is not given: in an installed
 * tree, found from the executable itself (<prefix>/bin/hashgen → <prefix>/share/hashbench/
 * templates), so the tree can be moved; else in the checkout it was built from. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "genutil.h"

#ifndef HG_TEMPLATES_DEFAULT
#define HG_TEMPLATES_DEFAULT "templates"
#endif

const char *hg_templates_default(void)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX];
	ssize_t n;
	size_t len;
	char *slash;

	if (path[0])
		return path;
	snprintf(path, sizeof(path), "%s", HG_TEMPLATES_DEFAULT);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return path;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return path;
	*slash = 0;
	len = strlen(exe);
	/* installed: the executable lies in <prefix>/bin beside <prefix>/share/hashbench/templates */
	if (len >= 4 && strcmp(exe + len - 4, "/bin") == 0) {
		char probe[PATH_MAX + 64];
		exe[len - 4] = 0;
		snprintf(probe, sizeof(probe), "%s/share/hashbench/templates/page.html", exe);
		if (access(probe, R_OK) == 0)
			snprintf(path, sizeof(path), "%s/share/hashbench/templates", exe);
	}
	return path;
}
