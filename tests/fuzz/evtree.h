/* evtree.h — the minimal evidence tree (data/) the hashgen fuzz harnesses replace one file of,
 * and the walk through hashgen's evidence reader they run on it. */
#ifndef HBF_EVTREE_H
#define HBF_EVTREE_H

#include <stddef.h>

enum { HBF_EV_SYSTEM, HBF_EV_RECORD, HBF_EV_KAT, HBF_EV_ENTRY, HBF_EV_SUMS, HBF_EV_NFILES };

/* Write the tree once per process (later calls do nothing). */
void hbf_evtree_make(void);
/* Put file `which` back as the tree has it, or its content as given. */
void hbf_evtree_restore(int which);
void hbf_evtree_set(int which, const void *data, size_t len);
/* hg_data_load, then per system and algorithm hg_sysalg_load and the figures of its records,
 * freeing everything. */
void hbf_evtree_load(void);

#endif
