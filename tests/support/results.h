/* results.h — the site's downloads as a test reads them: the index, each part checked against it,
 * and the parts joined again into every figure of the field. */
#ifndef HBT_RESULTS_H
#define HBT_RESULTS_H

#include <jansson.h>

/* <site>/results-index.json, parsed, after checking that every part it lists is there with the
 * size and SHA-256 it gives; asserts. The caller decrefs. */
json_t *hbt_results_index(const char *site);
/* Every part's JSON joined, in the index's order: {"schema", "columns", "systems": [each
 * system once, as its parts describe it], "figures": [every part's rows]}. The caller decrefs. */
json_t *hbt_results_json(const char *site);
/* Every part's CSV joined, in the index's order: the header row once, then every part's rows.
 * The caller frees. */
char *hbt_results_csv(const char *site);

#endif
