/* lockdown.h — the last step of a sandboxed child before submission code runs (libc only). */
#ifndef HB_LOCKDOWN_H
#define HB_LOCKDOWN_H

#include <stddef.h>

/* The descriptors a sandboxed child finds open (stdin is /dev/null; stdout and stderr go to
 * the bounded capture). */
#define HB_CHILD_RESULT_FD 3  /* the driver's protocol: what the parent keeps as the result */
#define HB_CHILD_REPORT_FD 4  /* the sandbox's own reports: violations, errors, exit status */
#define HB_CHILD_LIBRARY_FD 5 /* a copy of the library under test */
#define HB_CHILD_FILTER_FD 6  /* the seccomp program, raw BPF instructions */
#define HB_CHILD_LIBRARY_PATH "/proc/self/fd/5"

/* The report line a child writes before it dies of a forbidden system call. */
#define HB_VIOLATION_TAG "hashbench-violation "

/* Read the BPF program from fd (from offset 0, without moving a shared offset). The program
 * is malloc'd into *out_insns; *out_count instructions. 0 or -1 (errno set). */
int hb_lockdown_read(void **out_insns, unsigned short *out_count, int fd);

/* From now on every system call outside the filter kills this process with SIGSYS after one
 * line "hashbench-violation <number>" on report_fd. Also sets no-new-privileges. 0 or -1. */
int hb_lockdown(const void *insns, unsigned short count, int report_fd);

#endif
