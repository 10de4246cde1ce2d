/* sandbox_child.h — what the sandbox's parent side (sandbox.c) hands its child side
 * (confine.c), inside hashbench only. */
#ifndef HB_SANDBOX_CHILD_H
#define HB_SANDBOX_CHILD_H

#include <sys/types.h>

#include "hbsandbox.h"

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HB_CONFINE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HB_CONFINE_ASAN 1
#endif
#endif
#ifndef HB_CONFINE_ASAN
#define HB_CONFINE_ASAN 0
#endif

#define HB_CONFINE_NOFILE 16 /* open files a child may have */
#define HB_CONFINE_EXE_FD (HB_CHILD_FILTER_FD + 1) /* exec path: the driver, until it runs */
#if HB_CHILD_BATON_FD != HB_CONFINE_EXE_FD + 1
#error "the baton follows the driver's descriptor (confine.c S_fds)"
#endif

/* One child's setup, as the parent prepared it. */
typedef struct {
	const char *library;   /* fork path: the path to dlopen */
	hb_child_fn fn;
	void *arg;
	char *const *argv;     /* exec path */
	int exe_fd;            /* exec path: the driver, opened by the parent */
	int lib_fd;            /* sandboxed: a memfd copy of the library */
	int result_w, report_w, output_w;
	int baton_fd;          /* exec path: the turns with a partner driver, -1: none */
	const char *workdir;   /* sandboxed: the private working folder */
	unsigned timeout_s;
	int probe;             /* report what fails instead of stopping */
	int sandboxed, ns_flags, readonly, landlock, seccomp, switch_user;
	int filter_fd;         /* the seccomp program (seccomp on) */
	uid_t uid;             /* switch_user: the user to become */
	gid_t gid;
	unsigned long long memory_limit;
	unsigned processes;    /* RLIMIT_NPROC of the sandbox user: 0, or an emulator's threads */
} hb_confine_job;

/* In the new child (after clone or fork): set up what the job asks for, then run the driver or
 * load the library, lock down and call fn. Never returns. */
void hb_confine_child(const hb_confine_job *job) __attribute__((noreturn));

#endif
