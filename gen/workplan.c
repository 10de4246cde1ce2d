/* workplan.c — how a system's campaign was scheduled, for its method page: builds and KAT checks
 * before the timing or overlapping it, the timing CPUs, and the shards a merged system joins
 * (system.json's campaign.overlap, campaign.timing_cpus and shards). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"

static char *S_cpus(json_t *cpus)
{
	char *s = hg_xstrdup(""), *more;
	size_t i, n = json_array_size(cpus);
	for (i = 0; i < n; i++) {
		more = hg_xprintf("%s%s%lld", s, i == 0 ? "" : i + 1 == n ? " and " : ", ",
			json_integer_value(json_array_get(cpus, i)));
		free(s);
		s = more;
	}
	return s;
}

char *hg_schedule_describe(json_t *sys)
{
	json_t *c = json_object_get(sys, "campaign"), *cpus = json_object_get(c, "timing_cpus");
	json_t *shards = json_object_get(sys, "shards");
	char *list, *first, *second, *out;

	if (!json_is_boolean(json_object_get(c, "overlap")))
		return hg_xstrdup("Not recorded: this evidence was written by a hashbench version that "
			"built, checked and timed one library after another.");
	if (json_is_true(json_object_get(c, "overlap")))
		first = hg_xstrdup("With --overlap, libraries were built and KAT-checked in parallel "
			"worker processes while others were being timed (kept off the timing CPUs when "
			"there were others): their work may have slowed the figures (the README gives the "
			"interference measured).");
	else
		first = hg_xstrdup("Libraries were built and KAT-checked in parallel worker processes "
			"first; the timing began when every check had ended, so nothing of the campaign ran "
			"beside it.");
	list = S_cpus(cpus);
	if (json_array_size(cpus) > 1)
		second = hg_xprintf(" Records were timed on CPUs %s, one library per CPU at a time, so "
			"two figures may have been measured at once (the README gives the interference "
			"measured).", list);
	else
		second = hg_xprintf(" Records were timed one after another on CPU %s.", list);
	free(list);
	if (json_array_size(shards) > 0)
		out = hg_xprintf("%s%s This system joins %zu shards of one campaign, measured on "
			"identical machines and merged by `hashbench merge`.", first, second,
			json_array_size(shards));
	else
		out = hg_xprintf("%s%s", first, second);
	free(first);
	free(second);
	return out;
}
