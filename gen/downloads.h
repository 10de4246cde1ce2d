/* downloads.h — the figures as CSV and JSON downloads (downloads.c). */
#ifndef HG_DOWNLOADS_H
#define HG_DOWNLOADS_H

#include "hashgen.h"

/* The rows as CSV: a header row of the column names, then one row per figure. *out is the
 * caller's (free). */
int hg_results_csv(char **out, size_t *len, const hg_fig *const *rows, size_t n);
/* {"schema": "hashbench.results/1", "columns": […], "systems": [{"system", "system_json",
 * "system_json_sha256", "description": <system.json> when describe}], "figures": [{column:
 * value}]} */
int hg_results_json(char **out, size_t *len, const hg_system *const *systems, size_t nsys,
	int describe, const hg_fig *const *rows, size_t n);

#endif
